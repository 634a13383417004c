// wharf under a service manager (systemd): telling it when the daemon is ready and when
// it stops (sd_notify: Type=notify units wait for READY=1 before they count as started),
// and logging the way the journal wants when stderr is the journal: a `<N>` priority
// prefix per line, no colour, no timestamp (the journal stamps each line itself).
// Outside a service (no NOTIFY_SOCKET, no JOURNAL_STREAM) nothing changes.
#pragma once

#include <string>

namespace wharf::cli {

// Installs the daemon's logger: the journal's conventions when stderr is the journal,
// else timestamps and colour on a terminal.
void install_daemon_logger();

// True when `fd` is the stream JOURNAL_STREAM names (a unit's output), not a terminal
// or file a program started from the unit was given instead.
bool is_journal_stream(int fd);

// sd_notify messages; each is a no-op without NOTIFY_SOCKET. `status` is a line systemctl
// status shows.
void notify_ready(const std::string& status);
void notify_reloading();
void notify_stopping();

// The systemd user unit `wharf service install` writes: packaging/wharf.service, with its
// ExecStart and ExecReload naming `binary` (a path under `home` is written as %h/...).
std::string service_unit_text(const std::string& binary, const std::string& home);

}  // namespace wharf::cli
