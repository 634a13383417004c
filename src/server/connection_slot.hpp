// Counts a connection against the server's cap for as long as it lives.
#pragma once

#include "server/server_context.hpp"

namespace wharf::server {

class ConnectionSlot {
 public:
  explicit ConnectionSlot(ServerContext& context) : context_(context) {
    ++context_.open_connections;
  }
  ConnectionSlot(const ConnectionSlot&) = delete;
  ConnectionSlot& operator=(const ConnectionSlot&) = delete;
  ~ConnectionSlot() { --context_.open_connections; }

 private:
  ServerContext& context_;
};

}  // namespace wharf::server
