// Counts a connection against the server's cap for as long as it lives.
//
// The count is shared, not reached through the ServerContext: a connection still waiting
// when the daemon stops is destroyed with the io_context, after the context has gone.
#pragma once

#include <memory>

#include "server/server_context.hpp"

namespace wharf::server {

class ConnectionSlot {
 public:
  explicit ConnectionSlot(ServerContext& context) : count_(context.open_connections) { ++*count_; }
  ConnectionSlot(const ConnectionSlot&) = delete;
  ConnectionSlot& operator=(const ConnectionSlot&) = delete;
  ~ConnectionSlot() { --*count_; }

 private:
  std::shared_ptr<std::size_t> count_;
};

}  // namespace wharf::server
