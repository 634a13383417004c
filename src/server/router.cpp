#include "server/router.hpp"

#include <boost/beast/websocket/rfc6455.hpp>
#include <boost/json.hpp>
#include <boost/url/parse.hpp>
#include <cctype>
#include <charconv>
#include <optional>

#include "core/access_key.hpp"
#include "core/pane.hpp"
#include "core/version.hpp"
#include "server/api_routes.hpp"
#include "server/device_routes.hpp"
#include "server/push_routes.hpp"

namespace wharf::server {
namespace {

constexpr std::string_view kPagePolicy =
    "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "connect-src 'self'; img-src 'self' data: blob:; font-src 'self'; manifest-src 'self'; "
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'; frame-src 'self'";

// Headers every response carries: no sniffing, no framing, never a referrer (the page
// URL holds the key).
void add_common_headers(Response& res) {
  res.set(http::field::server, "wharf");
  res.set("X-Content-Type-Options", "nosniff");
  res.set("Referrer-Policy", "no-referrer");
  res.set("X-Frame-Options", "DENY");
  res.set("Cross-Origin-Opener-Policy", "same-origin");
  res.set("Cross-Origin-Resource-Policy", "same-origin");
}

Response make_response(http::status status, std::string_view content_type, std::string body,
                       const Request& req) {
  Response res{status, req.version()};
  add_common_headers(res);
  res.set(http::field::content_type, content_type);
  res.set(http::field::cache_control, "no-store");
  res.keep_alive(req.keep_alive());
  res.body() = std::move(body);
  res.prepare_payload();
  if (req.method() == http::verb::head) res.body().clear();
  return res;
}

// Programs talk to /api/... and /mcp: every refusal there is JSON (json_error), never a
// page, whatever refused it (the Host rule, the key, an unknown route). Decided from the
// raw target so that even a target wharf cannot parse is answered in the right form.
bool is_program_target(std::string_view target) {
  std::string_view path = target.substr(0, target.find_first_of("?#"));
  return path == "/api" || path.starts_with("/api/") || path == "/mcp" || path.starts_with("/mcp/");
}

Response json_response(http::status status, const boost::json::object& body, const Request& req) {
  return make_response(status, "application/json", boost::json::serialize(body) + "\n", req);
}

// The one shape of every refusal on the program paths (docs/api.md):
// {"ok": false, "error": {"code": "...", "message": "..."}}.
Response json_error(http::status status, std::string_view code, std::string_view message,
                    const Request& req) {
  return json_response(status, {{"ok", false}, {"error", {{"code", code}, {"message", message}}}},
                       req);
}

enum class KeyCheck { kMissing, kWrong, kGood };

// The refusal a person sees when a link has no key or an old one. It says where the
// current link is found and never contains a key. A program gets 401 in JSON instead.
Response key_refused(const Request& req, KeyCheck check) {
  if (is_program_target(req.target())) {
    Response res = check == KeyCheck::kMissing
                       ? json_error(http::status::unauthorized, "no_key",
                                    "send the key in X-Wharf-Key or Authorization: Bearer", req)
                       : json_error(http::status::unauthorized, "wrong_key",
                                    "the key is not this wharf's current key", req);
    res.set(http::field::www_authenticate, R"(Bearer realm="wharf")");
    return res;
  }
  return make_response(http::status::forbidden, "text/html; charset=utf-8",
                       R"(<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>wharf: key needed</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:36em;margin:4em auto;padding:0 1em;color:#ddd;background:#15171c}code{background:#2a2d35;padding:.1em .3em;border-radius:3px}</style>
</head><body>
<h1>This link has no valid key</h1>
<p>This browser is not paired with wharf either (or its pairing was revoked).</p>
<p>wharf only opens for links that carry its current key, and it mints a new key each
time it starts, so an old bookmark stops working after a restart.</p>
<p>On the machine running wharf, run <code>wharf open</code> to print the current link,
or read the key from the <code>key</code> file in wharf's state directory
(<code>~/.local/state/wharf/key</code> unless <code>--state-dir</code> says otherwise) and
add it to the address as <code>?k=KEY</code>.</p>
</body></html>
)",
                       req);
}

// A name that could be rebound to us is forbidden (403); localhost or an address that is
// simply not this server's (another port) is misdirected (421).
Response host_refused(const Request& req, core::HostVerdict verdict) {
  constexpr std::string_view kWhy =
      "wharf answers only requests addressed to the address and port it listens on (or "
      "localhost with that port, or a name in [server] allowed_hosts or public_url)";
  http::status status = verdict == core::HostVerdict::kMisdirected
                            ? http::status::misdirected_request
                            : http::status::forbidden;
  if (is_program_target(req.target()))
    return json_error(
        status, verdict == core::HostVerdict::kMisdirected ? "misdirected" : "bad_host", kWhy, req);
  return make_response(status, "text/plain; charset=utf-8", std::string(kWhy) + ".\n", req);
}

Response not_found(const Request& req) {
  if (is_program_target(req.target()))
    return json_error(http::status::not_found, "not_found", "no such route (see docs/api.md)", req);
  return make_response(http::status::not_found, "text/plain; charset=utf-8", "not found\n", req);
}

Response method_not_allowed(const Request& req, std::string_view allow) {
  Response res = is_program_target(req.target())
                     ? json_error(http::status::method_not_allowed, "bad_method",
                                  "this route takes " + std::string(allow), req)
                     : make_response(http::status::method_not_allowed, "text/plain; charset=utf-8",
                                     "method not allowed\n", req);
  res.set(http::field::allow, allow);
  return res;
}

struct Target {
  std::string path;  // still percent-encoded: matched literally
  std::optional<std::string> key;
  std::size_t key_count = 0;  // `k` given twice is refused: which one counts is ambiguous
  std::optional<std::int64_t> cols;
  std::optional<std::int64_t> rows;
  std::vector<std::pair<std::string, std::string>> params;  // decoded, the key left out
};

std::optional<std::int64_t> to_int(std::string_view text) {
  std::int64_t value = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc{} || ptr != text.data() + text.size()) return std::nullopt;
  return value;
}

std::optional<Target> parse_target(std::string_view raw) {
  auto parsed = boost::urls::parse_origin_form(raw);
  if (!parsed) return std::nullopt;
  Target target;
  target.path = std::string(parsed->encoded_path());
  for (auto param : parsed->params()) {
    if (param.key == "k") {
      target.key = param.value;
      ++target.key_count;
    }
    if (param.key == "cols") target.cols = to_int(param.value);
    if (param.key == "rows") target.rows = to_int(param.value);
    if (param.key != "k") target.params.emplace_back(param.key, param.value);
  }
  return target;
}

// The key in `Authorization: Bearer KEY`, if that is the scheme (any case, RFC 9110
// 11.1); another scheme is not a wharf credential and is ignored.
std::optional<std::string_view> bearer_token(std::string_view value) {
  constexpr std::string_view kScheme = "bearer ";
  if (value.size() < kScheme.size()) return std::nullopt;
  for (std::size_t i = 0; i < kScheme.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(value[i])) != kScheme[i]) return std::nullopt;
  std::string_view token = value.substr(kScheme.size());
  while (!token.empty() && token.front() == ' ') token.remove_prefix(1);
  while (!token.empty() && token.back() == ' ') token.remove_suffix(1);
  return token;
}

// The key may come as X-Wharf-Key, as Authorization: Bearer (what MCP clients send) or,
// for links, as ?k=. A header form, when present, decides, and every header form sent
// must hold the key; each comparison takes constant time. With no key in any form, a paired
// device's cookie counts as the key (server/device_routes.hpp); `device` learns which.
KeyCheck check_key(const Request& req, const Target& target, const ServerContext& ctx,
                   std::int64_t* device = nullptr) {
  bool sent = false;
  bool good = true;
  if (auto header = req.find(kKeyHeader); header != req.end()) {
    sent = true;
    good = req.count(kKeyHeader) == 1 && core::keys_match(ctx.key, header->value()) && good;
  }
  if (auto auth = req.find(http::field::authorization); auth != req.end()) {
    if (auto token = bearer_token(auth->value())) {
      sent = true;
      good =
          req.count(http::field::authorization) == 1 && core::keys_match(ctx.key, *token) && good;
    }
  }
  if (!sent && target.key_count > 0) {
    sent = true;
    good = target.key_count == 1 && core::keys_match(ctx.key, *target.key);
  }
  if (!sent) {
    auto paired = cookie_device(req, ctx);
    if (!paired) return KeyCheck::kMissing;
    if (device != nullptr) *device = *paired;
    return KeyCheck::kGood;
  }
  return good ? KeyCheck::kGood : KeyCheck::kWrong;
}

bool is_read(const Request& req) {
  return req.method() == http::verb::get || req.method() == http::verb::head;
}

Response serve_page(const Request& req, const ServerContext& ctx) {
  const Asset& page = ctx.assets.index_page();
  Response res = make_response(http::status::ok, page.content_type, *page.body, req);
  res.set("Content-Security-Policy", kPagePolicy);
  return res;
}

// GET /pane/SESSION/TOKEN: a web pane page (core/pane.hpp). The token, minted afresh at
// each publish and handed only to windows that hold the key (the `pane` message), is the
// whole permission: an iframe cannot send a header, and the key must never sit in a URL
// the page can read. A `k` in the query is refused for the same reason. The document
// carries its own policy (no network, sandboxed, framed only by wharf's page).
Response serve_pane(const Request& req, const Target& target, std::string_view rest,
                    const ServerContext& ctx) {
  if (!is_read(req)) return method_not_allowed(req, "GET, HEAD");
  if (target.key_count > 0)
    return make_response(http::status::bad_request, "text/plain; charset=utf-8",
                         "pane pages take no key in their address\n", req);
  std::size_t slash = rest.find('/');
  if (slash == std::string_view::npos || !ctx.pane_document) return not_found(req);
  std::string_view digits = rest.substr(0, slash);
  std::string_view token = rest.substr(slash + 1);
  std::uint64_t session = 0;
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), session);
  if (ec != std::errc{} || end != digits.data() + digits.size() || session == 0 ||
      token.size() != 32 || token.find_first_not_of("0123456789abcdef") != std::string_view::npos)
    return not_found(req);
  auto document = ctx.pane_document(session, token);
  if (!document) return not_found(req);
  Response res = make_response(http::status::ok, "text/html; charset=utf-8", *document, req);
  res.set("Content-Security-Policy", core::kPanePolicy);
  // Framed by wharf's own page only (frame-ancestors in the policy says the same).
  res.set("X-Frame-Options", "SAMEORIGIN");
  return res;
}

Response serve_static(const Request& req, std::string_view name, const ServerContext& ctx) {
  const Asset* asset = ctx.assets.find(name);
  if (asset == nullptr) return not_found(req);
  Response res = make_response(http::status::ok, asset->content_type, *asset->body, req);
  // Revalidate every time: a new build must never mix with cached modules.
  res.set(http::field::cache_control, "no-cache");
  // The service worker lives with the other static files but serves the page at "/"
  // when the network is gone (web/sw.js), so it may claim the whole origin as its scope.
  if (name == "sw.js") res.set("Service-Worker-Allowed", "/");
  return res;
}

// A request that changes something either carries no Origin (a program, not a page) or
// carries exactly wharf's own.
bool origin_acceptable(const Request& req, std::string_view host, const ServerContext& ctx) {
  auto origin = req.find(http::field::origin);
  if (origin == req.end()) return true;
  return req.count(http::field::origin) == 1 &&
         core::origin_allowed(origin->value(), host, ctx.reach);
}

bool content_is_json(const Request& req) {
  auto type = req.find(http::field::content_type);
  return type != req.end() && type->value().starts_with("application/json");
}

Response serve_status(const Request& req, const ServerContext& ctx) {
  StatusCounts counts = ctx.status ? ctx.status() : StatusCounts{};
  boost::json::object body = ctx.launch ? ctx.launch->status() : boost::json::object{};
  body["version"] = std::string(core::kVersion);
  body["protocol"] = core::kProtocolVersion;
  body["sessions"] = counts.sessions;
  body["attached"] = counts.attached;
  return json_response(http::status::ok, body, req);
}

// The body of a POST: one JSON object with one string field. Browsers can only send
// cross-site JSON after a preflight wharf never answers, but the check here does not
// rely on that: the key and the Origin rule come first.
core::Result<std::string> string_field(const Request& req, std::string_view field) {
  auto type = req.find(http::field::content_type);
  if (type == req.end() || !type->value().starts_with("application/json"))
    return core::Error{"send a JSON body (Content-Type: application/json)", "bad_request"};
  boost::system::error_code ec;
  boost::json::value body = boost::json::parse(req.body(), ec);
  const boost::json::value* value =
      !ec && body.is_object() ? body.get_object().if_contains(field) : nullptr;
  if (value == nullptr || !value->is_string() || value->get_string().size() > 4096) {
    return core::Error{
        "the body must be a JSON object with a string field '" + std::string(field) + "'",
        "bad_request"};
  }
  return std::string(value->get_string());
}

http::status status_for(const core::Error& error) {
  if (error.code == "bad_request") return http::status::bad_request;
  if (error.code == "unknown_entry") return http::status::not_found;
  return http::status::unprocessable_entity;
}

Response serve_setting(const Request& req, const ServerContext& ctx, std::string_view field) {
  if (ctx.launch == nullptr)
    return json_error(http::status::service_unavailable, "unavailable", "not ready", req);
  auto value = string_field(req, field);
  if (!value)
    return json_error(http::status::bad_request, "bad_request", value.error().message, req);
  auto done = field == "agent" ? ctx.launch->set_default_entry(value.value())
                               : ctx.launch->set_default_directory(value.value());
  if (!done) {
    const core::Error& error = done.error();
    return json_error(status_for(error), error.code.empty() ? "refused" : error.code, error.message,
                      req);
  }
  done.value()["ok"] = true;
  return json_response(http::status::ok, done.value(), req);
}

}  // namespace

bool holds_key(const Request& req, const ServerContext& ctx) {
  auto target = parse_target(req.target());
  return target && check_key(req, *target, ctx) == KeyCheck::kGood;
}

RouteDecision route_request(const Request& req, const ServerContext& ctx) {
  // The Host rule comes first: a rebound name gets nothing, not even static files.
  // Exactly one Host (RFC 9112 3.2): with two, a proxy and wharf might each read another.
  auto host = req.find(http::field::host);
  if (req.count(http::field::host) != 1) return host_refused(req, core::HostVerdict::kForbidden);
  if (auto verdict = core::judge_host(host->value(), ctx.listen, ctx.reach);
      verdict != core::HostVerdict::kAllowed)
    return host_refused(req, verdict);

  auto target = parse_target(req.target());
  if (!target) {
    if (is_program_target(req.target()))
      return json_error(http::status::bad_request, "bad_request", "malformed request target", req);
    return make_response(http::status::bad_request, "text/plain; charset=utf-8",
                         "malformed request target\n", req);
  }
  const std::string& path = target->path;

  constexpr std::string_view kStatic = "/static/";
  if (path.starts_with(kStatic)) {
    if (!is_read(req)) return method_not_allowed(req, "GET, HEAD");
    return serve_static(req, std::string_view(path).substr(kStatic.size()), ctx);
  }

  constexpr std::string_view kPane = "/pane/";
  if (path.starts_with(kPane))
    return serve_pane(req, *target, std::string_view(path).substr(kPane.size()), ctx);

  if (path == "/" || path == "/index.html") {
    if (!is_read(req)) return method_not_allowed(req, "GET, HEAD");
    auto check = check_key(req, *target, ctx);
    // A key in the address is traded for a device cookie and taken out of the address.
    if (target->key_count > 0)
      if (auto traded = trade_page_key(req, check == KeyCheck::kGood, ctx)) return *traded;
    if (check != KeyCheck::kGood) return key_refused(req, check);
    return serve_page(req, ctx);
  }

  // A one-time pairing link (`wharf pair`): the code is the whole permission.
  constexpr std::string_view kPair = "/pair/";
  if (path.starts_with(kPair)) {
    if (target->key_count > 0) return not_found(req);
    return serve_pair(req, std::string_view(path).substr(kPair.size()), ctx);
  }

  if (path == "/ws") {
    std::int64_t device = 0;
    if (auto check = check_key(req, *target, ctx, &device); check != KeyCheck::kGood)
      return key_refused(req, check);
    auto origin = req.find(http::field::origin);
    if (req.count(http::field::origin) != 1 ||
        !core::origin_allowed(origin->value(), host->value(), ctx.reach)) {
      return make_response(http::status::forbidden, "text/plain; charset=utf-8",
                           "WebSocket connections are accepted only from wharf's own page.\n", req);
    }
    if (!boost::beast::websocket::is_upgrade(req)) {
      return make_response(http::status::upgrade_required, "text/plain; charset=utf-8",
                           "this address takes WebSocket connections\n", req);
    }
    return UpgradeToWebSocket{
        core::clamp_size(target->cols.value_or(80), target->rows.value_or(24)), device};
  }

  if (path.starts_with("/api/")) {
    // A liveness probe: answers without the key (a monitor should not need it) and tells
    // nothing but that wharf is up and its version.
    if (path == "/api/v1/health") {
      if (!is_read(req)) return method_not_allowed(req, "GET, HEAD");
      return json_response(http::status::ok,
                           {{"ok", true}, {"version", std::string(core::kVersion)}}, req);
    }
    if (auto check = check_key(req, *target, ctx); check != KeyCheck::kGood)
      return key_refused(req, check);
    if (path == "/api/status") {
      if (!is_read(req)) return method_not_allowed(req, "GET, HEAD");
      return serve_status(req, ctx);
    }
    if (path == "/api/dirs") {
      if (!is_read(req)) return method_not_allowed(req, "GET, HEAD");
      if (ctx.launch == nullptr) return not_found(req);
      return json_response(http::status::ok, ctx.launch->directories(), req);
    }
    // A state change from a browser must come from wharf's own page.
    if (!is_read(req) && !origin_acceptable(req, host->value(), ctx))
      return json_error(http::status::forbidden, "bad_origin",
                        "requests that change wharf are accepted only from its own page", req);
    if (path == "/api/upload") {
      if (req.method() != http::verb::post) return method_not_allowed(req, "POST");
      return UploadFile{};
    }
    if (path == "/api/stop") {
      if (req.method() != http::verb::post) return method_not_allowed(req, "POST");
      return StopDaemon{};
    }
    if (path == "/api/push" || path.starts_with("/api/push/")) return serve_push(req, path, ctx);
    if (path == "/api/agent" || path == "/api/cwd") {
      if (req.method() != http::verb::post) return method_not_allowed(req, "POST");
      return serve_setting(req, ctx, path == "/api/agent" ? "agent" : "cwd");
    }
    constexpr std::string_view kApiV1 = "/api/v1/";
    if (path == "/api/v1/openapi.json") {
      if (!is_read(req)) return method_not_allowed(req, "GET, HEAD");
      if (ctx.api_description == nullptr) return not_found(req);
      return json_response(http::status::ok, *ctx.api_description, req);
    }
    if (path.starts_with(kApiV1)) {
      ApiRoute route = route_api_v1(req.method(), std::string_view(path).substr(kApiV1.size()),
                                    target->params, req.body(), content_is_json(req));
      if (auto* call = std::get_if<OperationCall>(&route)) return std::move(*call);
      auto& refusal = std::get<ApiRefusal>(route);
      if (refusal.status == http::status::method_not_allowed)
        return method_not_allowed(req, refusal.allow);
      return json_error(refusal.status, refusal.code, refusal.message, req);
    }
    return not_found(req);
  }

  if (path == "/mcp") {
    // MCP's Streamable HTTP: the key in a header like every API call, and an Origin, when
    // one is sent, must be wharf's own (DNS rebinding is already stopped by the Host rule).
    if (auto check = check_key(req, *target, ctx); check != KeyCheck::kGood)
      return key_refused(req, check);
    if (!origin_acceptable(req, host->value(), ctx))
      return json_error(http::status::forbidden, "bad_origin",
                        "MCP requests are accepted only from this machine's clients", req);
    if (req.method() != http::verb::post) return method_not_allowed(req, "POST");
    if (!content_is_json(req))
      return json_error(http::status::unsupported_media_type, "bad_request",
                        "send one JSON-RPC message as application/json", req);
    auto version = req.find("MCP-Protocol-Version");
    return McpPost{version == req.end() ? std::string() : std::string(version->value())};
  }

  return not_found(req);
}

Response operation_response(const core::Result<boost::json::object>& answer, const Request& req) {
  if (!answer) {
    const core::Error& error = answer.error();
    return json_error(status_for_operation_error(error.code),
                      error.code.empty() ? "refused" : error.code, error.message, req);
  }
  boost::json::object body = answer.value();
  body["ok"] = true;
  return json_response(http::status::ok, body, req);
}

Response plain_reply(http::status status, std::string_view content_type, std::string body,
                     const Request& req) {
  return make_response(status, content_type, std::move(body), req);
}

Response json_reply(http::status status, std::string body, const Request& req) {
  return make_response(status, "application/json", std::move(body), req);
}

Response error_reply(http::status status, std::string_view code, std::string_view message,
                     const Request& req) {
  return json_error(status, code, message, req);
}

Response error_reply(http::status status, std::string_view code, std::string_view message,
                     unsigned version, bool keep_alive) {
  Request req{http::verb::get, "/", version};
  req.keep_alive(keep_alive);
  return json_error(status, code, message, req);
}

}  // namespace wharf::server
