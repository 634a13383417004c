// Sandbox probe (see probe.hpp).
#include "sandbox/probe.hpp"

#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace wharf::sandbox {
namespace fs = std::filesystem;
namespace {

// Files under /etc that hold secrets of the machine or its users; covered with an empty
// file or directory when present.
constexpr const char* kSecretFiles[] = {"/etc/shadow",   "/etc/gshadow", "/etc/shadow-",
                                        "/etc/gshadow-", "/etc/sudoers", "/etc/security/opasswd"};
constexpr const char* kSecretDirs[] = {"/etc/ssh", "/etc/ssl/private", "/etc/sudoers.d",
                                       "/etc/wireguard", "/etc/NetworkManager/system-connections"};
// Where people keep keys and tokens in HOME: covered when a declared path (a workspace
// that is HOME itself, say) would otherwise show them.
constexpr const char* kHomeSecretFiles[] = {
    ".netrc", ".git-credentials", ".pgpass", ".docker/config.json", ".npmrc", ".pypirc"};
constexpr const char* kHomeSecretDirs[] = {".ssh",   ".gnupg", ".aws",       ".config/gcloud",
                                           ".azure", ".kube",  ".config/gh", ".password-store"};
constexpr const char* kSystemDirs[] = {"/usr", "/etc",   "/opt",   "/bin",   "/sbin",
                                       "/lib", "/lib32", "/lib64", "/libx32"};

std::string read_first_line(const char* path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

}  // namespace

core::Result<std::string> find_bwrap() {
  std::string found;
  for (const char* candidate : {"/usr/bin/bwrap", "/usr/local/bin/bwrap", "/bin/bwrap"}) {
    if (::access(candidate, X_OK) == 0) {
      found = candidate;
      break;
    }
  }
  if (found.empty())
    return core::Error{
        "sandboxed sessions need bubblewrap, which is not installed: `sudo apt install "
        "bubblewrap`",
        "no_sandbox"};
  if (::geteuid() != 0) {
    // Debian's kernels gate unprivileged user namespaces behind this switch.
    if (read_first_line("/proc/sys/kernel/unprivileged_userns_clone") == "0")
      return core::Error{
          "sandboxed sessions need user namespaces, which this kernel has switched off: "
          "`sudo sysctl kernel.unprivileged_userns_clone=1`",
          "no_sandbox"};
    if (read_first_line("/proc/sys/user/max_user_namespaces") == "0")
      return core::Error{
          "sandboxed sessions need user namespaces, and user.max_user_namespaces is 0: "
          "`sudo sysctl user.max_user_namespaces=15000`",
          "no_sandbox"};
  }
  return found;
}

HostLayout probe_layout(const std::string& home, const std::string& state_dir) {
  HostLayout layout;
  layout.home = home;
  layout.state_dir = state_dir;
  std::error_code ec;
  for (const char* dir : kSystemDirs) {
    fs::path path(dir);
    if (fs::is_symlink(path, ec)) {
      // Merged /usr: /bin -> usr/bin stays a link inside, as on the machine.
      layout.symlinks.emplace_back(dir, fs::read_symlink(path, ec).string());
    } else if (fs::is_directory(path, ec)) {
      layout.system_dirs.emplace_back(dir);
    }
  }
  for (const char* file : kSecretFiles) {
    if (fs::exists(file, ec)) layout.secret_files.emplace_back(file);
  }
  for (const char* dir : kSecretDirs) {
    if (fs::is_directory(dir, ec)) layout.secret_dirs.emplace_back(dir);
  }
  if (!home.empty()) {
    for (const char* file : kHomeSecretFiles) {
      fs::path path = fs::path(home) / file;
      if (fs::is_regular_file(path, ec)) layout.secret_files.push_back(path.string());
    }
    for (const char* dir : kHomeSecretDirs) {
      fs::path path = fs::path(home) / dir;
      if (fs::is_directory(path, ec)) layout.secret_dirs.push_back(path.string());
    }
  }
  // /etc/resolv.conf is often a link into /run, which the sandbox replaces.
  fs::path resolv = fs::weakly_canonical("/etc/resolv.conf", ec);
  if (!ec && resolv.string().starts_with("/run/"))
    layout.dns_paths.push_back(resolv.parent_path().string());
  return layout;
}

}  // namespace wharf::sandbox
