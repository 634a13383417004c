#include "server/openapi.hpp"

#include <boost/json.hpp>
#include <string>

#include "core/version.hpp"
#include "ops/operation.hpp"
#include "server/api_routes.hpp"

namespace wharf::server {
namespace json = boost::json;
namespace {

constexpr std::string_view kSessionPlace = "{session}";

// The input schema without "session" (which the path names).
json::object without_session(json::object schema) {
  if (json::value* properties = schema.if_contains("properties");
      properties && properties->is_object())
    properties->get_object().erase("session");
  if (json::value* required = schema.if_contains("required"); required && required->is_array()) {
    json::array kept;
    for (const json::value& name : required->get_array())
      if (name != "session") kept.push_back(name);
    if (kept.empty()) {
      schema.erase("required");
    } else {
      *required = std::move(kept);
    }
  }
  return schema;
}

// A success: the operation's answer with "ok": true.
json::object success(const ops::Operation& operation, http::status status) {
  json::object schema = ops::output_schema(operation);
  json::value& properties = schema["properties"];
  if (!properties.is_object()) properties = json::object{};
  properties.get_object()["ok"] = json::object{{"const", true}};
  return json::object{
      {"description", status == http::status::created
                          ? "Started: the operation's answer, with \"ok\": true."
                          : "The operation's answer, with \"ok\": true."},
      {"content", json::object{{"application/json", json::object{{"schema", std::move(schema)}}}}}};
}

json::object error_response() {
  return json::object{
      {"description",
       "A refusal or failure: {ok: false, error: {code, message}}; the status says what kind "
       "(docs/api.md)."},
      {"content",
       json::object{
           {"application/json",
            json::object{{"schema", json::object{{"$ref", "#/components/schemas/Error"}}}}}}}};
}

json::object operation_entry(const ApiRouteSpec& route, std::string operation_id) {
  json::object entry;
  if (route.path == "health") {
    entry["operationId"] = "health";
    entry["summary"] = "Liveness";
    entry["description"] = "Answers without the key: wharf is up, and its version. Nothing else.";
    entry["security"] = json::array{};  // public
    json::object schema{{"type", "object"},
                        {"properties", json::object{{"ok", json::object{{"const", true}}},
                                                    {"version", json::object{{"type", "string"}}}}},
                        {"required", json::array{"ok", "version"}}};
    entry["responses"] = json::object{
        {"200",
         json::object{{"description", "wharf is up."},
                      {"content", json::object{{"application/json",
                                                json::object{{"schema", std::move(schema)}}}}}}},
        {"default", error_response()}};
    return entry;
  }
  if (route.operation.empty()) {
    entry["operationId"] = "openapi";
    entry["summary"] = "This document";
    entry["responses"] = json::object{
        {"200",
         json::object{
             {"description", "The OpenAPI 3.1 description of /api/v1."},
             {"content",
              json::object{{"application/json",
                            json::object{{"schema", json::object{{"type", "object"}}}}}}}}},
        {"default", error_response()}};
    return entry;
  }
  const ops::Operation* operation = ops::find_operation(route.operation);
  if (operation == nullptr) return entry;  // the route table's tests keep this from happening
  entry["operationId"] = std::move(operation_id);
  entry["summary"] = operation->title;
  entry["description"] = operation->description;
  bool in_path = route.path.find(kSessionPlace) != std::string_view::npos;
  json::object input =
      in_path ? without_session(ops::input_schema(*operation)) : ops::input_schema(*operation);
  if (route.arguments == ApiRouteSpec::Arguments::kBody) {
    entry["requestBody"] = json::object{
        {"required", input.contains("required")},
        {"content", json::object{{"application/json", json::object{{"schema", input}}}}}};
  } else if (route.arguments == ApiRouteSpec::Arguments::kQuery) {
    json::array parameters;
    const json::value* required = input.if_contains("required");
    if (const json::value* properties = input.if_contains("properties");
        properties && properties->is_object()) {
      for (const auto& [name, schema] : properties->get_object()) {
        bool needed = false;
        if (required != nullptr && required->is_array())
          for (const json::value& r : required->get_array()) needed = needed || r == name;
        parameters.push_back(json::object{
            {"name", name}, {"in", "query"}, {"required", needed}, {"schema", schema}});
      }
    }
    entry["parameters"] = std::move(parameters);
  }
  entry["responses"] = json::object{
      {std::to_string(static_cast<unsigned>(route.success)), success(*operation, route.success)},
      {"default", error_response()}};
  return entry;
}

json::object build() {
  json::object paths;
  json::object used_ids;
  for (const ApiRouteSpec& route : api_v1_routes()) {
    std::string path = "/" + std::string(route.path);
    json::value& item = paths[path];
    if (!item.is_object()) {
      item = json::object{};
      if (route.path.find(kSessionPlace) != std::string_view::npos)
        item.get_object()["parameters"] = json::array{
            json::object{{"name", "session"},
                         {"in", "path"},
                         {"required", true},
                         {"description", "The session's id."},
                         {"schema", json::object{{"type", "integer"}, {"minimum", 1}}}}};
    }
    std::string id(route.operation);
    if (used_ids.contains(id)) id += "_in_session";
    used_ids[id] = true;
    std::string method(http::to_string(route.method));
    for (char& c : method) c = static_cast<char>(c - 'A' + 'a');
    item.get_object()[method] = operation_entry(route, std::move(id));
  }
  json::object error_schema{
      {"type", "object"},
      {"properties",
       json::object{
           {"ok", json::object{{"const", false}}},
           {"error", json::object{{"type", "object"},
                                  {"properties",
                                   json::object{{"code", json::object{{"type", "string"}}},
                                                {"message", json::object{{"type", "string"}}}}},
                                  {"required", json::array{"code", "message"}}}}}},
      {"required", json::array{"ok", "error"}}};
  return json::object{
      {"openapi", "3.1.0"},
      {"info", json::object{{"title", "wharf /api/v1"},
                            {"version", std::string(core::kVersion)},
                            {"description",
                             "Drive wharf's terminal sessions: the same operations as the "
                             "wharf CLI and the MCP tools (docs/api.md)."}}},
      {"servers", json::array{json::object{{"url", "/api/v1"}}}},
      {"security", json::array{json::object{{"key_header", json::array{}}},
                               json::object{{"bearer", json::array{}}},
                               json::object{{"key_query", json::array{}}}}},
      {"components",
       json::object{
           {"securitySchemes",
            json::object{
                {"key_header",
                 json::object{{"type", "apiKey"}, {"in", "header"}, {"name", "X-Wharf-Key"}}},
                {"bearer", json::object{{"type", "http"}, {"scheme", "bearer"}}},
                {"key_query", json::object{{"type", "apiKey"}, {"in", "query"}, {"name", "k"}}}}},
           {"schemas", json::object{{"Error", std::move(error_schema)}}}}},
      {"paths", std::move(paths)},
  };
}

}  // namespace

const json::object& openapi_document() {
  static const json::object kDocument = build();
  return kDocument;
}

}  // namespace wharf::server
