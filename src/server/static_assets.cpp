#include "server/static_assets.hpp"

#include <fstream>
#include <sstream>

namespace wharf::server {
namespace fs = std::filesystem;

std::string_view content_type_for(std::string_view name) {
  auto ends = [&](std::string_view ext) { return name.ends_with(ext); };
  if (ends(".html")) return "text/html; charset=utf-8";
  if (ends(".js") || ends(".mjs")) return "text/javascript; charset=utf-8";
  if (ends(".css")) return "text/css; charset=utf-8";
  if (ends(".svg")) return "image/svg+xml";
  if (ends(".png")) return "image/png";
  if (ends(".json") || ends(".map")) return "application/json";
  if (ends(".webmanifest")) return "application/manifest+json";
  if (ends(".woff2")) return "font/woff2";
  return "application/octet-stream";
}

core::Result<StaticAssets> StaticAssets::load(const fs::path& root) {
  std::error_code ec;
  if (!fs::is_directory(root, ec))
    return core::Error{"the page's files are missing: " + root.string() +
                       " is not a directory (build with `make build`, or pass --assets)"};
  StaticAssets assets;
  for (auto it = fs::recursive_directory_iterator(root, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (!it->is_regular_file()) continue;
    std::ifstream in(it->path(), std::ios::binary);
    std::ostringstream body;
    body << in.rdbuf();
    std::string name = fs::relative(it->path(), root).generic_string();
    assets.files_.emplace(name, Asset{std::string(content_type_for(name)),
                                      std::make_shared<const std::string>(body.str())});
  }
  if (ec) return core::Error{"cannot read " + root.string() + ": " + ec.message()};
  auto index = assets.files_.find("index.html");
  if (index == assets.files_.end())
    return core::Error{"the page's files are incomplete: no index.html in " + root.string()};
  // The page itself is only served through the keyed route, never as a static file.
  assets.index_ = index->second;
  assets.files_.erase(index);
  return assets;
}

const Asset* StaticAssets::find(std::string_view name) const {
  auto it = files_.find(name);
  return it == files_.end() ? nullptr : &it->second;
}

fs::path default_asset_root() {
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (ec) return fs::path("web");
  fs::path beside = exe.parent_path() / "web";
  if (fs::is_directory(beside, ec)) return beside;
  return exe.parent_path().parent_path() / "share" / "wharf" / "web";
}

}  // namespace wharf::server
