#include "server/device_routes.hpp"

#include <boost/url/parse.hpp>
#include <boost/url/url.hpp>

#include "core/device_tokens.hpp"

namespace wharf::server {
namespace {

// 400 days: the longest a browser keeps a cookie (RFC 6265bis caps Max-Age there).
constexpr std::int64_t kCookieMaxAge = 400LL * 24 * 3600;

constexpr std::string_view kPageStyle =
    "body{font:16px/1.5 system-ui,sans-serif;max-width:36em;margin:4em auto;padding:0 1em;"
    "color:#ddd;background:#15171c}code{background:#2a2d35;padding:.1em .3em;border-radius:3px}"
    "a{color:#8ab4f8}";

std::string escape(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '&')
      out += "&amp;";
    else if (c == '"')
      out += "&quot;";
    else if (c == '<')
      out += "&lt;";
    else if (c == '>')
      out += "&gt;";
    else
      out.push_back(c);
  }
  return out;
}

std::string page(std::string_view title, std::string_view body, std::string_view head = {}) {
  return "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>wharf: " +
         std::string(title) +
         "</title>\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n" +
         std::string(head) + "<style>" + std::string(kPageStyle) + "</style>\n</head><body>\n" +
         std::string(body) + "\n</body></html>\n";
}

Response html(http::status status, std::string body, const Request& req) {
  Response res = plain_reply(status, "text/html; charset=utf-8", std::move(body), req);
  // No script, no style from elsewhere; the inline style is the only thing it needs.
  res.set("Content-Security-Policy",
          "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; "
          "frame-ancestors 'none'");
  return res;
}

std::string set_cookie(const ServerContext& ctx, std::string_view token) {
  return device_cookie_name(ctx) + "=" + std::string(token) +
         "; Path=/; Max-Age=" + std::to_string(kCookieMaxAge) + "; HttpOnly; SameSite=Strict" +
         (ctx.secure_cookies ? "; Secure" : "");
}

// Where a navigation came from, by Fetch Metadata: a browser says cross-site or
// same-site when another site's page started it; none (typed, a bookmark, a QR scanner)
// or same-origin otherwise. A client that sends nothing is no browser: redirect it.
bool started_elsewhere(const Request& req) {
  auto site = req.find("Sec-Fetch-Site");
  return site != req.end() && (site->value() == "cross-site" || site->value() == "same-site");
}

// 303 to `location` (relative, on this origin), with the cookie if one is given; for a
// navigation another site started, a page that moves on from our own origin instead.
Response move_on(const Request& req, const ServerContext& ctx, const std::string& location,
                 std::optional<std::string_view> token) {
  Response res =
      started_elsewhere(req)
          ? html(http::status::ok,
                 page("opening", "<p>Opening <a href=\"" + escape(location) + "\">wharf</a>…</p>",
                      "<meta http-equiv=\"refresh\" content=\"0;url=" + escape(location) + "\">\n"),
                 req)
          : plain_reply(http::status::see_other, "text/plain; charset=utf-8",
                        "see " + location + "\n", req);
  if (!started_elsewhere(req)) res.set(http::field::location, location);
  if (token) res.set(http::field::set_cookie, set_cookie(ctx, *token));
  return res;
}

std::string user_agent(const Request& req) {
  auto ua = req.find(http::field::user_agent);
  if (ua == req.end()) return core::device_name_from_user_agent("");
  return core::device_name_from_user_agent(
      std::string_view(ua->value().data(), ua->value().size()));
}

// The target without its `k` parameters: path and every other parameter as sent.
std::string without_key(std::string_view target) {
  auto parsed = boost::urls::parse_origin_form(target);
  if (!parsed) return "/";
  boost::urls::url url(*parsed);
  auto params = url.encoded_params();
  for (auto it = params.begin(); it != params.end();) {
    if ((*it).key == "k")
      it = params.erase(it);
    else
      ++it;
  }
  if (params.empty()) url.remove_query();
  std::string out(url.encoded_target());
  // Only what this origin serves: a path starting "//" would name another host.
  if (out.empty() || out.front() != '/' || out.starts_with("//")) return "/";
  return out;
}

}  // namespace

std::string device_cookie_name(const ServerContext& context) {
  return "wharf_" + std::to_string(context.listen.port);
}

std::optional<std::int64_t> cookie_device(const Request& request, const ServerContext& context) {
  if (!context.devices.find || request.count(http::field::cookie) == 0) return std::nullopt;
  std::optional<std::string_view> token;
  std::string name = device_cookie_name(context);
  // Browsers send one Cookie header; HTTP/2 proxies may split it: read each.
  for (auto it = request.find(http::field::cookie);
       it != request.end() && it->name() == http::field::cookie; ++it) {
    if (auto value = core::cookie_value(it->value(), name)) {
      if (token) return std::nullopt;  // twice: ambiguous
      token = value;
    }
  }
  if (!token) return std::nullopt;
  return context.devices.find(*token);
}

std::optional<Response> trade_page_key(const Request& request, bool key_good,
                                       const ServerContext& context) {
  if (!context.devices.pair || request.method() != http::verb::get) return std::nullopt;
  std::string_view target(request.target().data(), request.target().size());
  std::string location = without_key(target);
  if (cookie_device(request, context)) return move_on(request, context, location, std::nullopt);
  if (!key_good) return std::nullopt;
  // Only a browser's navigation becomes a device: browsers send Sec-Fetch-Mode, and a
  // script fetching the keyed address (curl, a health check) would otherwise add a device
  // on every run. Such a client is served the page as before.
  if (request.find("Sec-Fetch-Mode") == request.end()) return std::nullopt;
  DeviceGrant grant = context.devices.pair(user_agent(request));
  if (grant.kind != DeviceGrant::Kind::kPaired) return std::nullopt;  // served as before
  return move_on(request, context, location, grant.token);
}

Response serve_pair(const Request& request, std::string_view code, const ServerContext& context) {
  if (!context.devices.redeem)
    return plain_reply(http::status::not_found, "text/plain; charset=utf-8", "not found\n",
                       request);
  if (request.method() != http::verb::get) {
    // A HEAD (a link preview) must not spend the code.
    Response res = plain_reply(http::status::method_not_allowed, "text/plain; charset=utf-8",
                               "open this link in a browser\n", request);
    res.set(http::field::allow, "GET");
    return res;
  }
  DeviceGrant grant = context.devices.redeem(code, user_agent(request));
  constexpr std::string_view kAgain =
      "<p>Make a new link on the machine running wharf: run <code>wharf pair</code>, or use "
      "<b>Pair a device</b> in the settings of a wharf window that works. A link works once, "
      "for ten minutes.</p>";
  switch (grant.kind) {
    case DeviceGrant::Kind::kPaired:
      return move_on(request, context, "/", grant.token);
    case DeviceGrant::Kind::kThrottled: {
      Response res = html(http::status::too_many_requests,
                          page("too many tries",
                               "<h1>Too many wrong pairing links</h1>\n<p>wharf has seen "
                               "several pairing links that do not work in the last minute, "
                               "so it takes none for a while. Try again in " +
                                   std::to_string(grant.retry_after) + " seconds.</p>"),
                          request);
      res.set(http::field::retry_after, std::to_string(grant.retry_after));
      return res;
    }
    case DeviceGrant::Kind::kFailed:
      return html(http::status::internal_server_error,
                  page("pairing failed",
                       "<h1>Pairing failed</h1>\n<p>wharf could not pair "
                       "this device. The log on the machine says why.</p>"),
                  request);
    case DeviceGrant::Kind::kBadCode:
      break;
  }
  return html(http::status::not_found,
              page("pairing link not valid",
                   "<h1>This pairing link does not work</h1>\n<p>It was used already, it "
                   "expired, or it is mistyped.</p>\n" +
                       std::string(kAgain)),
              request);
}

}  // namespace wharf::server
