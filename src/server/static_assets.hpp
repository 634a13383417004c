// The page's files, loaded into memory once at start. Requests are answered by exact
// name lookup in this table, never by joining a request path to a directory, so no
// path can reach a file outside it.
#pragma once

#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <string_view>

#include "core/result.hpp"

namespace wharf::server {

struct Asset {
  std::string content_type;
  std::shared_ptr<const std::string> body;
};

class StaticAssets {
 public:
  // Reads every file under `root` (recursively). `index.html` must be present.
  static core::Result<StaticAssets> load(const std::filesystem::path& root);

  // `name` relative to the asset root, e.g. "main.js" or "vendor/xterm/xterm.mjs".
  const Asset* find(std::string_view name) const;
  const Asset& index_page() const { return index_; }

 private:
  std::map<std::string, Asset, std::less<>> files_;
  Asset index_{"text/html; charset=utf-8", std::make_shared<const std::string>()};
};

// The folder the page's files are read from: `--assets`, else beside the binary
// (`<exe dir>/web`), else an installed copy (`<exe dir>/../share/wharf/web`).
std::filesystem::path default_asset_root();

std::string_view content_type_for(std::string_view name);

}  // namespace wharf::server
