// Sandbox plans and bubblewrap's argv (see plan.hpp).
#include "sandbox/plan.hpp"

#include <algorithm>

namespace wharf::sandbox {
namespace {

std::size_t depth(const std::string& path) {
  return static_cast<std::size_t>(std::count(path.begin(), path.end(), '/'));
}

// Parents first; among equals, read-only before writable so a writable path inside a
// readable one wins.
void sort_binds(std::vector<Mount>& binds) {
  std::stable_sort(binds.begin(), binds.end(), [](const Mount& a, const Mount& b) {
    if (depth(a.target) != depth(b.target)) return depth(a.target) < depth(b.target);
    return a.kind == Mount::Kind::kReadOnly && b.kind == Mount::Kind::kWritable;
  });
}

core::Result<std::vector<std::string>> normal_all(const std::vector<std::string>& paths,
                                                  std::string_view what) {
  std::vector<std::string> out;
  for (const std::string& path : paths) {
    auto normal = core::normal_path(path);
    if (!normal)
      return core::Error{std::string(what) + ": " + normal.error().message, "bad_argument"};
    if (normal.value() == "/")
      return core::Error{std::string(what) + ": '/' is the whole machine; name directories",
                         "bad_argument"};
    if (std::find(out.begin(), out.end(), normal.value()) == out.end())
      out.push_back(normal.value());
  }
  return out;
}

}  // namespace

core::Result<Plan> plan_sandbox(const core::Capabilities& capabilities, const HostLayout& layout,
                                const std::string& cwd) {
  auto writable = normal_all(capabilities.writable, "writable");
  if (!writable) return writable.error();
  auto readable = normal_all(capabilities.readable, "readable");
  if (!readable) return readable.error();
  auto where = core::normal_path(cwd);
  if (!where) return core::Error{"directory: " + where.error().message, "bad_argument"};

  Plan plan;
  plan.cwd = where.value();
  plan.share_network = capabilities.network == core::Network::kHost;

  if (!layout.state_dir.empty()) {
    for (const auto* paths : {&writable.value(), &readable.value()}) {
      for (const std::string& path : *paths) {
        if (core::within(path, layout.state_dir))
          return core::Error{"'" + path + "' is inside wharf's state directory " +
                                 layout.state_dir + ", which no session may reach",
                             "not_permitted"};
      }
    }
  }
  bool cwd_reachable =
      std::any_of(writable.value().begin(), writable.value().end(),
                  [&](const std::string& p) { return core::within(plan.cwd, p); }) ||
      std::any_of(readable.value().begin(), readable.value().end(),
                  [&](const std::string& p) { return core::within(plan.cwd, p); });
  if (!cwd_reachable)
    return core::Error{
        "the session's directory " + plan.cwd + " is neither readable nor writable in its sandbox",
        "bad_argument"};

  auto& m = plan.mounts;
  for (const std::string& dir : layout.system_dirs) m.push_back({Mount::Kind::kReadOnly, dir, dir});
  for (const auto& link : layout.symlinks)
    m.push_back({Mount::Kind::kSymlink, link.first, link.second});
  m.push_back({Mount::Kind::kTmpfs, "/tmp", ""});
  m.push_back({Mount::Kind::kTmpfs, "/run", ""});
  if (plan.share_network) {
    for (const std::string& path : layout.dns_paths)
      m.push_back({Mount::Kind::kReadOnly, path, path});
  }
  if (!layout.home.empty()) m.push_back({Mount::Kind::kTmpfs, layout.home, ""});

  std::vector<Mount> binds;
  for (const std::string& path : readable.value()) {
    // A path also declared writable is bound once, read-write.
    if (std::find(writable.value().begin(), writable.value().end(), path) != writable.value().end())
      continue;
    binds.push_back({Mount::Kind::kReadOnly, path, path});
  }
  for (const std::string& path : writable.value())
    binds.push_back({Mount::Kind::kWritable, path, path});
  sort_binds(binds);
  m.insert(m.end(), binds.begin(), binds.end());

  // Hidden last, so no bind above can bring them back.
  // A secret in HOME (keys, tokens) is covered only where a bind would show it, and not
  // when it was declared itself (or a path inside it): naming ~/.ssh is asking for it.
  auto covered = [&](const std::string& secret) {
    if (layout.home.empty() || !core::within(secret, layout.home)) return true;
    bool shown = std::any_of(binds.begin(), binds.end(),
                             [&](const Mount& b) { return core::within(secret, b.target); });
    bool asked = std::any_of(binds.begin(), binds.end(),
                             [&](const Mount& b) { return core::within(b.target, secret); });
    return shown && !asked;
  };
  for (const std::string& file : layout.secret_files)
    if (covered(file)) m.push_back({Mount::Kind::kEmptyFile, file, ""});
  for (const std::string& dir : layout.secret_dirs)
    if (covered(dir)) m.push_back({Mount::Kind::kTmpfs, dir, ""});
  if (!layout.state_dir.empty()) {
    bool exposed = std::any_of(binds.begin(), binds.end(), [&](const Mount& bind) {
      return core::within(layout.state_dir, bind.target);
    });
    if (exposed) m.push_back({Mount::Kind::kTmpfs, layout.state_dir, ""});
  }
  return plan;
}

std::vector<std::string> bwrap_argv(const std::string& bwrap, const Plan& plan,
                                    const std::vector<std::string>& program) {
  std::vector<std::string> argv{bwrap, "--die-with-parent", "--unshare-user-try", "--unshare-pid",
                                "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try",
                                // Root outside is not root inside: no capability survives.
                                "--cap-drop", "ALL"};
  if (!plan.share_network) argv.push_back("--unshare-net");
  argv.insert(argv.end(), {"--proc", "/proc", "--dev", "/dev"});
  for (const Mount& mount : plan.mounts) {
    switch (mount.kind) {
      case Mount::Kind::kReadOnly:
        argv.insert(argv.end(), {"--ro-bind", mount.source, mount.target});
        break;
      case Mount::Kind::kWritable:
        argv.insert(argv.end(), {"--bind", mount.source, mount.target});
        break;
      case Mount::Kind::kTmpfs:
        argv.insert(argv.end(), {"--tmpfs", mount.target});
        break;
      case Mount::Kind::kEmptyFile:
        argv.insert(argv.end(), {"--ro-bind", "/dev/null", mount.target});
        break;
      case Mount::Kind::kSymlink:
        argv.insert(argv.end(), {"--symlink", mount.source, mount.target});
        break;
    }
  }
  // No --new-session: the program's terminal is its own PTY, which it must keep as its
  // controlling terminal (job control, TUI resize), and input injected into that PTY
  // reaches only the program itself.
  argv.insert(argv.end(), {"--chdir", plan.cwd, "--"});
  argv.insert(argv.end(), program.begin(), program.end());
  return argv;
}

}  // namespace wharf::sandbox
