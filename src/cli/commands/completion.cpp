// `wharf completion bash|zsh`: prints a shell script that completes wharf's command line:
// verbs, each verb's options, sessions (ids and names) where a session is named, and
// catalog entries after `new --agent/--shell/--action`. The script asks this binary for
// the words at completion time through the hidden `wharf completion --words KIND`, so
// new verbs and options need no new script, and sessions come from the running daemon
// (nothing is completed when none runs).
#include <cstdio>
#include <memory>
#include <string>

#include "cli/commands.hpp"
#include "cli/control_client.hpp"

namespace wharf::cli {
namespace {

constexpr const char* kBashScript =
    R"SH(# bash completion for wharf. Load it with:  source <(wharf completion bash)
_wharf_words() {
  local wharf="${COMP_WORDS[0]}" i state=()
  for ((i = 1; i < ${#COMP_WORDS[@]} - 1; i++)); do
    [[ ${COMP_WORDS[i]} == --state-dir ]] && state=(--state-dir "${COMP_WORDS[i+1]}")
  done
  "$wharf" completion --words "$1" "${state[@]}" 2>/dev/null
}
_wharf() {
  local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD-1]}"
  local verb="${COMP_WORDS[1]}" IFS=$'\n' kind=""
  if ((COMP_CWORD == 1)); then
    kind=verbs
  else
    case "$prev" in
      -t|--target|--session) kind=sessions ;;
      --agent) kind=entries:agent ;;
      --shell) kind=entries:shell ;;
      --action) kind=entries:action ;;
      --cwd|--state-dir|--workspace|--assets) COMPREPLY=($(compgen -d -- "$cur")); return ;;
      --config) COMPREPLY=($(compgen -f -- "$cur")); return ;;
    esac
  fi
  if [[ -z $kind ]]; then
    if [[ $cur == -* ]]; then
      kind="flags:$verb"
    else
      case "$verb" in
        attach|kill|read-screen|send-keys|send-text|wait|rename|reorder) kind=sessions ;;
        agent) kind=entries ;;
        help) kind=verbs ;;
        cwd) COMPREPLY=($(compgen -d -- "$cur")); return ;;
        completion) COMPREPLY=($(compgen -W $'bash\nzsh' -- "$cur")); return ;;
        config) COMPREPLY=($(compgen -W check -- "$cur")); return ;;
        pane) if [[ $prev == pane ]]; then COMPREPLY=($(compgen -W $'show\nclear' -- "$cur")); else COMPREPLY=($(compgen -f -- "$cur")); fi; return ;;
        notify) COMPREPLY=($(compgen -W $'waiting\nfinished' -- "$cur")); return ;;
        key) COMPREPLY=($(compgen -W rotate -- "$cur")); return ;;
        devices) COMPREPLY=($(compgen -W revoke -- "$cur")); return ;;
        *) return ;;
      esac
    fi
  fi
  local word
  COMPREPLY=()
  # Session names may hold spaces: each word is one line, quoted for the command line.
  while read -r word; do
    [[ -n $word && $word == "$cur"* ]] && COMPREPLY+=("$(printf '%q' "$word")")
  done < <(_wharf_words "$kind")
}
complete -F _wharf wharf
)SH";

constexpr const char* kZshScript =
    R"SH(# zsh completion for wharf. Load it after compinit with:  source <(wharf completion zsh)
_wharf_words() {
  local i state=()
  for ((i = 2; i < CURRENT; i++)); do
    [[ ${words[i]} == --state-dir ]] && state=(--state-dir "${words[i+1]}")
  done
  "${words[1]}" completion --words "$1" "${state[@]}" 2>/dev/null
}
_wharf() {
  local kind="" verb="${words[2]}" prev="${words[CURRENT-1]}"
  local -a found
  if ((CURRENT == 2)); then
    kind=verbs
  else
    case "$prev" in
      -t|--target|--session) kind=sessions ;;
      --agent) kind=entries:agent ;;
      --shell) kind=entries:shell ;;
      --action) kind=entries:action ;;
      --cwd|--state-dir|--workspace|--assets) _files -/; return ;;
      --config) _files; return ;;
    esac
  fi
  if [[ -z $kind ]]; then
    if [[ $PREFIX == -* ]]; then
      kind="flags:$verb"
    else
      case "$verb" in
        attach|kill|read-screen|send-keys|send-text|wait|rename|reorder) kind=sessions ;;
        agent) kind=entries ;;
        help) kind=verbs ;;
        cwd) _files -/; return ;;
        completion) compadd bash zsh; return ;;
        config) compadd check; return ;;
        pane) if [[ ${words[CURRENT-1]} == pane ]]; then compadd show clear; else _files; fi; return ;;
        notify) compadd waiting finished; return ;;
        key) compadd rotate; return ;;
        devices) compadd revoke; return ;;
        *) return 1 ;;
      esac
    fi
  fi
  found=("${(@f)$(_wharf_words "$kind")}")
  compadd -a found
}
compdef _wharf wharf
)SH";

struct CompletionOptions {
  std::string state_dir;
  std::string shell;
  std::string words;
};

// The words of one kind, one a line: what the scripts complete from.
int print_words(const CLI::App& wharf, const std::string& state_dir, const std::string& kind) {
  if (kind == "verbs") {
    for (const CLI::App* verb : wharf.get_subcommands({}))
      if (!verb->get_group().empty()) std::printf("%s\n", verb->get_name().c_str());
    return 0;
  }
  if (kind.starts_with("flags:")) {
    const CLI::App* verb = nullptr;
    for (const CLI::App* each : wharf.get_subcommands({}))
      if (each->get_name() == kind.substr(6)) verb = each;
    if (verb == nullptr) return 1;
    for (const CLI::Option* option : verb->get_options()) {
      if (option->get_group().empty()) continue;  // hidden
      for (const std::string& name : option->get_lnames()) std::printf("--%s\n", name.c_str());
      for (const std::string& name : option->get_snames()) std::printf("-%s\n", name.c_str());
    }
    return 0;
  }
  if (kind == "sessions") {
    auto listed = call_operation(state_dir, "list_sessions", {});
    if (!listed) return 1;
    for (const auto& row : listed.value().at("result").at("sessions").as_array()) {
      const auto& session = row.as_object();
      std::printf("%lld\n", static_cast<long long>(session.at("id").to_number<std::int64_t>()));
      std::string name(session.at("name").as_string());
      // A name with a line break cannot be one completion line; its id still is.
      if (!name.empty() && name.find_first_of("\r\n") == std::string::npos)
        std::printf("%s\n", name.c_str());
    }
    return 0;
  }
  if (kind == "entries" || kind.starts_with("entries:")) {
    std::string wanted = kind == "entries" ? "" : kind.substr(8);
    auto listed = call_operation(state_dir, "list_entries", {});
    if (!listed) return 1;
    for (const auto& row : listed.value().at("result").at("entries").as_array()) {
      const auto& entry = row.as_object();
      std::string entry_kind(entry.at("kind").as_string());
      std::string name(entry.at("entry").as_string());
      if (wanted.empty())
        std::printf("%s\n",
                    entry_kind == "agent" ? name.c_str() : (entry_kind + ":" + name).c_str());
      else if (entry_kind == wanted)
        std::printf("%s\n", name.c_str());
    }
    return 0;
  }
  return usage_error("no completion words of kind '" + kind + "'");
}

std::function<int()> setup_completion(CLI::App& verb) {
  auto o = std::make_shared<CompletionOptions>();
  add_state_dir_option(verb, o->state_dir);
  verb.add_option("shell", o->shell, "bash or zsh")->check(CLI::IsMember({"bash", "zsh"}));
  verb.add_option("--words", o->words, "What the scripts ask: verbs, flags:VERB, sessions, entries")
      ->group("");
  verb.footer(R"(Examples:
  wharf completion bash > ~/.local/share/bash-completion/completions/wharf
  source <(wharf completion bash)        # in ~/.bashrc
  source <(wharf completion zsh)         # in ~/.zshrc, after compinit)");
  const CLI::App* wharf = verb.get_parent();
  return [o, wharf] {
    if (!o->words.empty()) return print_words(*wharf, o->state_dir, o->words);
    if (o->shell.empty()) return usage_error("completion needs a shell: bash or zsh");
    std::fputs(o->shell == "bash" ? kBashScript : kZshScript, stdout);
    return 0;
  };
}

}  // namespace

const Command kCompletionCommand{
    .name = "completion",
    .summary = "Print a bash or zsh completion script",
    .setup = setup_completion,
};

}  // namespace wharf::cli
