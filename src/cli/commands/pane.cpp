// `wharf pane show FILE|- [--title T] [-t SESSION]` and `wharf pane clear [-t SESSION]`:
// publish an HTML page in the web pane beside a session's terminal, or take it away
// (docs/page.md, "The web pane"). Inside a session the session is the caller's own; the
// daemon decides who may publish where (ops/pane_show.cpp). The file is read here, up to
// the largest page any daemon accepts, so a wrong file (a log, a binary) is refused
// before it is sent.
#include "core/pane.hpp"

#include <cstdio>
#include <fstream>
#include <iostream>
#include <iterator>
#include <memory>

#include "cli/commands.hpp"
#include "cli/control_client.hpp"

namespace wharf::cli {
namespace {

struct PaneOptions {
  std::string state_dir;
  std::string target;
  std::string file;
  std::string title;
};

// The page's bytes, from a file or (for "-") standard input; at most the cap plus one,
// so an oversized page is known without reading it all.
core::Result<std::string> read_page(const std::string& file) {
  constexpr std::size_t kLimit = core::kMaxPaneBytesLimit + 1;
  std::string out;
  auto read_from = [&](std::istream& in) {
    char buffer[16384];
    while (out.size() < kLimit && in.read(buffer, sizeof buffer).gcount() > 0)
      out.append(buffer, static_cast<std::size_t>(in.gcount()));
  };
  if (file == "-") {
    read_from(std::cin);
  } else {
    std::ifstream in(file, std::ios::binary);
    if (!in) return core::Error{"cannot read " + file, "usage"};
    read_from(in);
  }
  if (out.size() > core::kMaxPaneBytesLimit)
    return core::Error{"the page is over " + std::to_string(core::kMaxPaneBytesLimit) +
                           " bytes, more than a pane accepts; nothing was sent",
                       "too_large"};
  return out;
}

std::function<int()> setup_pane(CLI::App& verb) {
  auto o = std::make_shared<PaneOptions>();
  verb.require_subcommand(1);
  CLI::App* show = verb.add_subcommand("show", "Show an HTML page beside the session's terminal");
  add_state_dir_option(*show, o->state_dir);
  show->add_option("file", o->file, "The page: an HTML file, or - for standard input")->required();
  show->add_option("--title", o->title, "A short title for the pane's header");
  show->add_option("-t,--session", o->target,
                   "The session, id or name (default: the one this runs in)");
  show->footer(R"(The page runs sandboxed with no network access: inline its styles, scripts
and images. A <form data-feedback> sends its fields back into the session.

Examples:
  wharf pane show plan.html --title "Plan"
  render-report | wharf pane show - -t build)");
  CLI::App* clear = verb.add_subcommand("clear", "Remove the session's pane page");
  add_state_dir_option(*clear, o->state_dir);
  clear->add_option("-t,--session", o->target,
                    "The session, id or name (default: the one this runs in)");
  return [o, show] {
    boost::json::object args;
    if (!o->target.empty()) {
      auto id = resolve_target(o->state_dir, o->target);
      if (!id) return report_failure(id.error());
      args["session"] = id.value();
    }
    std::string_view operation = "pane_clear";
    if (show->parsed()) {
      auto page = read_page(o->file);
      if (!page) return report_failure(page.error());
      args["html"] = page.value();
      if (!o->title.empty()) args["title"] = o->title;
      operation = "pane_show";
    }
    auto answer = call_operation(o->state_dir, operation, std::move(args));
    if (!answer) return report_failure(answer.error());
    return 0;
  };
}

}  // namespace

const Command kPaneCommand{
    .name = "pane",
    .summary = "Show an HTML page beside a session's terminal, or clear it",
    .setup = setup_pane,
};

}  // namespace wharf::cli
