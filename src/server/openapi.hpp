// The OpenAPI 3.1 description of /api/v1, served at GET /api/v1/openapi.json with the key
// like every /api route. It is built, not written: the paths and methods come from the
// route table (server/api_routes.hpp), and each request and answer schema from the
// operation's own descriptor (ops/operation.hpp), the same schemas that check arguments
// and that MCP's tools/list shows. So it cannot disagree with what the daemon serves.
#pragma once

#include <boost/json/object.hpp>

namespace wharf::server {

// Built once; the same for every request.
const boost::json::object& openapi_document();

}  // namespace wharf::server
