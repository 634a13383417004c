// What `wharf serve` does about sessions an earlier daemon left, before and after its own
// run: finding their hosts, keeping the key they were opened with, and `wharf restart`,
// which turns this process into the daemon on disk (docs/hosts.md).
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "core/control_message.hpp"
#include "core/result.hpp"
#include "host/host_launch.hpp"

namespace wharf::cli {

// WHARF_KEY if set; else, when sessions were taken over from an earlier daemon, the key
// it used (open pages reconnect without a new link); else a fresh one.
core::Result<std::string> take_key(const std::filesystem::path& key_file, bool sessions_kept);

// The sessions an earlier daemon left running (it crashed, or stopped keeping them):
// every host that answers in the hosts dir. A host of another protocol version is left
// running for a wharf that speaks it, and its id is never handed out here.
struct FoundHosts {
  std::vector<host::HostConnection> live;
  core::SessionId first_free_id = 1;
};
FoundHosts find_hosts(const std::filesystem::path& dir);

// `wharf restart`: this process becomes the wharf binary now on disk (an upgrade is a
// build and a restart), with the same arguments, port and key, so open pages come back
// to the same address. Every descriptor is closed on exec: the new daemon binds the port
// and the sockets afresh and finds the sessions through their hosts. Returns only when
// that failed, with why.
core::Error restart_in_place(std::uint16_t port, const std::string& key);

}  // namespace wharf::cli
