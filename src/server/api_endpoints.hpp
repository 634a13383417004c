// What the /api routes do once the router has let a request through (api_routes.hpp and
// router.hpp decide, with no I/O, who may call what): run an operation from the table in
// src/ops, store an upload, stop the daemon. Each answers with a Response; none touches
// the connection, so a handler's failure is an error reply on that request only.
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>

#include "server/router.hpp"
#include "server/server_context.hpp"

namespace wharf::app {
class WebPushChannel;
}

namespace wharf::server {

// /api/push...: the router's hooks (server/push_hooks.hpp) wired to the daemon's channel.
PushHooks push_hooks(app::WebPushChannel& channel);

// /api/v1/...: runs the operation the router read from the request, as the key holder.
boost::asio::awaitable<Response> run_api_operation(const OperationCall& call,
                                                   const Request& request, ServerContext& context);

// POST /api/upload: stores the body in the upload directory (app/upload_store.hpp).
Response store_upload(const Request& request, ServerContext& context);

// POST /api/stop: names the sessions that end, then asks the daemon to stop on a later
// turn of `executor`'s loop, so that this answer is on its way first.
Response stop_daemon(const Request& request, ServerContext& context,
                     const boost::asio::any_io_executor& executor);

}  // namespace wharf::server
