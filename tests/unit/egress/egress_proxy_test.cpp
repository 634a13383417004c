// The egress proxy (egress/proxy_request.hpp, egress/egress_proxy.hpp): request lines
// judged against the allow-list, addresses that point back into the machine refused, and
// the proxy itself over a real Unix socket with a loopback server standing for an allowed
// host (the test lets the proxy dial loopback, which the real one refuses).
#include "egress/egress_proxy.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/write.hpp>
#include <filesystem>

#include "egress/proxy_request.hpp"

namespace wharf::egress {
namespace {

namespace asio = boost::asio;
using asio::ip::tcp;
using local = asio::local::stream_protocol;

std::vector<core::Endpoint> list(std::initializer_list<const char*> lines) {
  std::vector<core::Endpoint> out;
  for (const char* line : lines) out.push_back(core::endpoint_of(line).value());
  return out;
}

TEST(ProxyRequest, ConnectNeedsHostAndPortOnTheList) {
  auto allow = list({"api.anthropic.com", "example.org:80"});
  auto ok = judge_proxy_request("CONNECT", "api.anthropic.com:443", allow);
  ASSERT_TRUE(ok) << ok.error().message;
  EXPECT_TRUE(ok.value().tunnel);
  EXPECT_EQ(ok.value().port, 443);
  EXPECT_EQ(judge_proxy_request("CONNECT", "api.anthropic.com:22", allow).error().code,
            "not_allowed");
  EXPECT_EQ(judge_proxy_request("CONNECT", "evil.com:443", allow).error().code, "not_allowed");
  EXPECT_EQ(judge_proxy_request("CONNECT", "93.184.216.34:443", allow).error().code, "not_allowed");
  for (const char* bad : {"api.anthropic.com", "api.anthropic.com:", "api.anthropic.com:0",
                          "api.anthropic.com:99999", ":443", "[::1:443", "a b:443"})
    EXPECT_EQ(judge_proxy_request("CONNECT", bad, allow).error().code, "bad_request") << bad;
}

TEST(ProxyRequest, PlainHttpTakesAbsoluteUrlsOnly) {
  auto allow = list({"example.org:80"});
  auto ok = judge_proxy_request("GET", "http://Example.org/a/b?c=d#frag", allow);
  ASSERT_TRUE(ok) << ok.error().message;
  EXPECT_FALSE(ok.value().tunnel);
  EXPECT_EQ(ok.value().port, 80);
  EXPECT_EQ(ok.value().origin_form, "/a/b?c=d");
  EXPECT_EQ(judge_proxy_request("GET", "http://example.org", allow).value().origin_form, "/");
  EXPECT_EQ(judge_proxy_request("GET", "http://example.org:8080/", allow).error().code,
            "not_allowed");
  EXPECT_EQ(judge_proxy_request("GET", "/relative", allow).error().code, "bad_request");
  EXPECT_EQ(judge_proxy_request("GET", "https://example.org/", allow).error().code, "bad_request");
  EXPECT_EQ(judge_proxy_request("GET", "http://user@example.org/", allow).error().code,
            "bad_request");
}

TEST(ProxyRequest, AddressesBackIntoTheMachineAreNotDialled) {
  for (const char* ip : {"127.0.0.1", "127.1.2.3", "::1", "0.0.0.0", "::", "169.254.169.254",
                         "fe80::1", "224.0.0.1", "::ffff:127.0.0.1", "not an ip"})
    EXPECT_FALSE(dialable_address(ip)) << ip;
  for (const char* ip : {"93.184.216.34", "10.1.2.3", "192.168.1.5", "2606:4700::1111"})
    EXPECT_TRUE(dialable_address(ip)) << ip;
}

struct ProxyFixture : ::testing::Test {
  asio::io_context io;
  std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("wharf-egress-" + std::to_string(::getpid()));
  tcp::acceptor upstream{io, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0)};
  std::vector<Refusal> refusals;
  std::shared_ptr<EgressProxy> proxy;

  void SetUp() override {
    std::filesystem::create_directories(dir);
    std::string allow = "localhost:" + std::to_string(upstream.local_endpoint().port());
    auto opened = EgressProxy::open(
        io.get_executor(), (dir / "proxy.sock").string(), list({allow.c_str()}),
        [this](const Refusal& r) { refusals.push_back(r); },
        [](std::string_view ip) { return ip == "127.0.0.1"; });
    ASSERT_TRUE(opened) << opened.error().message;
    proxy = opened.value();
    proxy->start();
  }
  void TearDown() override {
    proxy->stop();
    std::filesystem::remove_all(dir);
  }

  // Sends `request` through the proxy and returns all it answers until it closes; the
  // upstream server, when `echo`, answers "pong:" + what it read.
  std::string exchange(const std::string& request, bool echo) {
    std::string answer;
    if (echo) {
      upstream.async_accept([](boost::system::error_code ec, tcp::socket s) {
        if (ec) return;
        auto socket = std::make_shared<tcp::socket>(std::move(s));
        auto data = std::make_shared<std::string>();
        asio::async_read(*socket, asio::dynamic_buffer(*data),
                         [socket, data](boost::system::error_code, std::size_t) {
                           auto reply = std::make_shared<std::string>("pong:" + *data);
                           asio::async_write(
                               *socket, asio::buffer(*reply),
                               [socket, reply](boost::system::error_code, std::size_t) {
                                 boost::system::error_code ignored;
                                 socket->shutdown(tcp::socket::shutdown_send, ignored);
                               });
                         });
      });
    }
    local::socket client(io);
    client.connect(local::endpoint((dir / "proxy.sock").string()));
    asio::async_write(client, asio::buffer(request), [&](boost::system::error_code, std::size_t) {
      boost::system::error_code ignored;
      client.shutdown(local::socket::shutdown_send, ignored);
    });
    bool done = false;
    asio::async_read(client, asio::dynamic_buffer(answer),
                     [&](boost::system::error_code, std::size_t) { done = true; });
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (!done && std::chrono::steady_clock::now() < deadline)
      io.run_one_for(std::chrono::milliseconds(50));
    EXPECT_TRUE(done) << "the proxy never finished";
    return answer;
  }
};

TEST_F(ProxyFixture, TunnelsToAnAllowedHost) {
  std::string port = std::to_string(upstream.local_endpoint().port());
  std::string answer = exchange(
      "CONNECT localhost:" + port + " HTTP/1.1\r\nHost: localhost:" + port + "\r\n\r\nping", true);
  EXPECT_EQ(answer, "HTTP/1.1 200 Connection established\r\n\r\npong:ping");
  EXPECT_TRUE(refusals.empty());
}

TEST_F(ProxyFixture, ForwardsPlainHttpInOriginForm) {
  std::string port = std::to_string(upstream.local_endpoint().port());
  std::string answer = exchange("GET http://localhost:" + port +
                                    "/path?q=1 HTTP/1.1\r\nHost: localhost\r\nProxy-Connection: "
                                    "keep-alive\r\n\r\n",
                                true);
  EXPECT_EQ(answer.find("pong:GET /path?q=1 HTTP/1.1\r\n"), 0u) << answer;
  EXPECT_EQ(answer.find("Proxy-Connection"), std::string::npos);
  EXPECT_NE(answer.find("Connection: close\r\n"), std::string::npos);
}

TEST_F(ProxyFixture, RefusesAndRecordsHostsOffTheList) {
  std::string answer = exchange("CONNECT evil.example:443 HTTP/1.1\r\n\r\n", false);
  EXPECT_EQ(answer.find("HTTP/1.1 403 Forbidden"), 0u) << answer;
  EXPECT_NE(answer.find("evil.example:443 is not on this session's allow-list"), std::string::npos);
  ASSERT_EQ(refusals.size(), 1u);
  EXPECT_EQ(refusals[0].host, "evil.example");
  EXPECT_EQ(refusals[0].port, 443);
}

TEST_F(ProxyFixture, RefusesAnAllowedNameThatPointsHomeWithoutTheTestsOverride) {
  // localhost resolves to ::1 too, which the fixture's dialler refuses: with 127.0.0.1
  // also refused, nothing is left to dial.
  proxy->stop();
  auto opened = EgressProxy::open(
      io.get_executor(), (dir / "proxy.sock").string(),
      list({("localhost:" + std::to_string(upstream.local_endpoint().port())).c_str()}),
      [this](const Refusal& r) { refusals.push_back(r); });
  ASSERT_TRUE(opened);
  proxy = opened.value();
  proxy->start();
  std::string port = std::to_string(upstream.local_endpoint().port());
  std::string answer = exchange("CONNECT localhost:" + port + " HTTP/1.1\r\n\r\n", false);
  EXPECT_EQ(answer.find("HTTP/1.1 502"), 0u) << answer;
  EXPECT_NE(answer.find("only to this machine's own addresses"), std::string::npos);
  ASSERT_EQ(refusals.size(), 1u);
}

TEST_F(ProxyFixture, AnswersGarbageWithBadRequest) {
  EXPECT_EQ(exchange("HELLO\r\n\r\n", false).find("HTTP/1.1 400"), 0u);
  EXPECT_EQ(exchange("GET /relative HTTP/1.1\r\n\r\n", false).find("HTTP/1.1 400"), 0u);
  EXPECT_TRUE(refusals.empty());
}

}  // namespace
}  // namespace wharf::egress
