#include "core/shell_integration.hpp"

namespace wharf::core {
namespace {

// bash runs this instead of ~/.bashrc (--init-file). A login shell ignores --init-file,
// so wharf starts bash as an interactive non-login shell and, when the session would have
// been a login shell, this reads the profile files itself. PS0 (bash >= 4.4) prints C when
// a command line is run; PROMPT_COMMAND prints D with the status, then the directory
// (OSC 7, for the status strip), then A; B ends PS1.
constexpr std::string_view kBashInit =
    R"BASH(# wharf's shell integration for bash: OSC 133 marks around prompts and commands, OSC 7
# with the directory at each prompt.
if [ -n "${WHARF_SHELL_LOGIN-}" ]; then
  unset WHARF_SHELL_LOGIN
  [ -r /etc/profile ] && . /etc/profile
  if [ -r ~/.bash_profile ]; then . ~/.bash_profile
  elif [ -r ~/.bash_login ]; then . ~/.bash_login
  elif [ -r ~/.profile ]; then . ~/.profile
  fi
else
  [ -r ~/.bashrc ] && . ~/.bashrc
fi
if [ -z "${__wharf_marks-}" ]; then
  __wharf_marks=1
  __wharf_first=1
  __wharf_prompt_start() {
    local status=$?
    [ -z "$__wharf_first" ] && printf '\033]133;D;%s\007' "$status"
    __wharf_first=
    __wharf_cwd
    printf '\033]133;A\007'
    return $status
  }
  # OSC 7: the directory as a file:// URL, each byte outside a safe set as %XX.
  __wharf_cwd() {
    local LC_ALL=C path=$PWD out= c i
    if [[ $path == *[!-/._~A-Za-z0-9]* ]]; then
      for (( i = 0; i < ${#path}; i++ )); do
        c=${path:i:1}
        case $c in
          [-/._~A-Za-z0-9]) out+=$c ;;
          *) printf -v c '%%%02X' "'$c"; out+=$c ;;
        esac
      done
    else
      out=$path
    fi
    printf '\033]7;file://%s%s\007' "${HOSTNAME-}" "$out"
  }
  __wharf_prompt_end() {
    local status=$?
    case $PS1 in *'133;B'*) ;; *) PS1="$PS1"'\[\033]133;B\007\]' ;; esac
    return $status
  }
  PS0="${PS0-}"$'\033]133;C\007'
  PROMPT_COMMAND=(__wharf_prompt_start "${PROMPT_COMMAND[@]}" __wharf_prompt_end)
fi
)BASH";

// zsh reads its startup files from $ZDOTDIR, which points at wharf's directory; each of
// wharf's files runs the user's own from where they would have been read (the user's
// ZDOTDIR, else $HOME), and the last one to run gives ZDOTDIR back.
constexpr std::string_view kZshEnv = R"ZSH(# wharf's shell integration for zsh (see .zshrc).
__wharf_zdotdir=$ZDOTDIR
ZDOTDIR=${WHARF_USER_ZDOTDIR:-$HOME}
[[ -r $ZDOTDIR/.zshenv ]] && . $ZDOTDIR/.zshenv
WHARF_USER_ZDOTDIR=$ZDOTDIR
ZDOTDIR=$__wharf_zdotdir
)ZSH";

constexpr std::string_view kZshProfile = R"ZSH(# wharf's shell integration for zsh (see .zshrc).
ZDOTDIR=$WHARF_USER_ZDOTDIR
[[ -r $ZDOTDIR/.zprofile ]] && . $ZDOTDIR/.zprofile
WHARF_USER_ZDOTDIR=$ZDOTDIR
ZDOTDIR=$__wharf_zdotdir
)ZSH";

constexpr std::string_view kZshRc =
    R"ZSH(# wharf's shell integration for zsh: OSC 133 marks around prompts and commands, OSC 7
# with the directory at each prompt.
ZDOTDIR=$WHARF_USER_ZDOTDIR
[[ -r $ZDOTDIR/.zshrc ]] && . $ZDOTDIR/.zshrc
WHARF_USER_ZDOTDIR=$ZDOTDIR
ZDOTDIR=$__wharf_zdotdir
__wharf_first=1
__wharf_prompt_start() {
  local wharf_status=$?
  [[ -z $__wharf_first ]] && printf '\033]133;D;%s\007' $wharf_status
  __wharf_first=
  __wharf_cwd
  printf '\033]133;A\007'
  return $wharf_status
}
# OSC 7: the directory as a file:// URL, each byte outside a safe set as %XX.
__wharf_cwd() {
  emulate -L zsh
  setopt extended_glob no_multibyte
  local out=${PWD//(#m)[^-\/._~A-Za-z0-9]/%${(l:2::0:)$(( [##16] #MATCH ))}}
  printf '\033]7;file://%s%s\007' "$HOST" "$out"
}
__wharf_prompt_end() {
  [[ $PS1 == *'133;B'* ]] || PS1="$PS1"$'%{\e]133;B\a%}'
}
__wharf_command_start() { printf '\033]133;C\007' }
precmd_functions=(__wharf_prompt_start $precmd_functions __wharf_prompt_end)
preexec_functions+=(__wharf_command_start)
if [[ ! -o login ]]; then
  ZDOTDIR=$WHARF_USER_ZDOTDIR
  [[ $ZDOTDIR == $HOME ]] && unset ZDOTDIR
  unset WHARF_USER_ZDOTDIR __wharf_zdotdir
fi
)ZSH";

constexpr std::string_view kZshLogin = R"ZSH(# wharf's shell integration for zsh (see .zshrc).
ZDOTDIR=$WHARF_USER_ZDOTDIR
[[ -r $ZDOTDIR/.zlogin ]] && . $ZDOTDIR/.zlogin
[[ $ZDOTDIR == $HOME ]] && unset ZDOTDIR
unset WHARF_USER_ZDOTDIR __wharf_zdotdir
)ZSH";

std::string_view value_of(const std::vector<std::string>& env, std::string_view name) {
  for (const std::string& entry : env)
    if (entry.size() > name.size() && entry.compare(0, name.size(), name) == 0 &&
        entry[name.size()] == '=')
      return std::string_view(entry).substr(name.size() + 1);
  return {};
}

}  // namespace

const std::vector<IntegrationFile>& shell_integration_files() {
  static const std::vector<IntegrationFile> kFiles{
      {"bash-init.sh", kBashInit}, {"zsh/.zshenv", kZshEnv},   {"zsh/.zprofile", kZshProfile},
      {"zsh/.zshrc", kZshRc},      {"zsh/.zlogin", kZshLogin},
  };
  return kFiles;
}

bool plan_shell_integration(const CatalogEntry& entry, std::string_view directory,
                            const std::vector<std::string>& user_env, LaunchPlan& plan,
                            EnvList& env) {
  if (entry.kind != EntryKind::kShell || directory.empty() || plan.argv.size() != 1) return false;
  std::string dir(directory);
  bool login = !plan.argv.front().empty() && plan.argv.front().front() == '-';
  if (entry.name == "bash") {
    plan.argv = {"bash", "--init-file", dir + "/bash-init.sh"};
    if (login) env.push_back({"WHARF_SHELL_LOGIN", "1"});
    return true;
  }
  if (entry.name == "zsh") {
    std::string_view user_zdotdir = value_of(user_env, "ZDOTDIR");
    if (!user_zdotdir.empty()) env.push_back({"WHARF_USER_ZDOTDIR", std::string(user_zdotdir)});
    env.push_back({"ZDOTDIR", dir + "/zsh"});
    return true;
  }
  return false;
}

}  // namespace wharf::core
