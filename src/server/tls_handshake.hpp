// The start of a connection on a TLS port: tell TLS from plain HTTP by the first bytes
// (Beast's detect_ssl), then shake hands within a deadline. A person who typed
// http:// instead of https:// gets a clear answer rather than a dropped connection:
// a temporary redirect to the same address over https when the Host passes the Host
// rule (a refusal by the Host rule otherwise), then the connection ends. Whatever key
// that request carried has crossed the network unencrypted; the log says so, without it.
#pragma once

#include <boost/asio/awaitable.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <string_view>

#include "server/server_context.hpp"
#include "server/server_stream.hpp"

namespace wharf::server {

// True: `stream` now speaks TLS and the HTTP session reads requests from it (with what
// is left in `buffer`). False: the connection was answered or failed, and is done.
boost::asio::awaitable<bool> open_tls(ServerStream& stream, boost::beast::flat_buffer& buffer,
                                      const ServerContext& context, std::string_view peer);

}  // namespace wharf::server
