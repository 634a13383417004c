// Drives the real WebSocket window (server::WebSocketSession) with mutated frames: each
// input is one connection over a loopback TCP pair, the server side handed to the class
// with an upgrade request as the HTTP layer would, the client side writing what the
// input describes, then closing its half. The class must come through every input
// without a crash, a sanitizer report or a hang: it answers, closes, and is destroyed.
//
// The first byte picks the mode. Odd: the rest is written as it is (raw bytes after the
// handshake: unmasked frames, bad lengths, reserved bits). Even: the rest is a list of
// frames, each a header byte (opcode from kOpcodes, FIN, mask), a length byte (255: two
// more bytes of length) and that many payload bytes, written as a well-formed masked
// client frame. Seeds in tests/fuzz/seeds/websocket are control messages of
// docs/protocol.md in that form, so mutations reach the message handlers.
//
// The session service behind it has no catalog and room for no session, so `new` and
// `attach` with start are refused without forking anything; what is fuzzed is the frame
// layer, the message parser and the window's handling of each message.
#include <array>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/http.hpp>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <memory>
#include <string>

#include "app/session_service.hpp"
#include "server/server_context.hpp"
#include "server/server_stream.hpp"
#include "server/websocket_session.hpp"

namespace {

namespace asio = boost::asio;
namespace http = boost::beast::http;
using asio::ip::tcp;

constexpr std::uint8_t kOpcodes[] = {0x1, 0x2, 0x0, 0x8, 0x9, 0xA};
constexpr std::uint8_t kMask[4] = {0x37, 0xfa, 0x21, 0x3d};

wharf::app::ServiceOptions no_room() {
  wharf::app::ServiceOptions options;
  options.max_sessions = 0;
  return options;
}

struct Fixture {
  asio::io_context io;
  wharf::app::SessionService sessions{io, wharf::app::LaunchDefaults{}, no_room(), nullptr, 1};
  wharf::server::ServerContext context;
  tcp::acceptor acceptor{io, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0)};

  Fixture() {
    context.key = "fuzz";
    context.sessions = &sessions;
    context.window_timeout = std::chrono::seconds(10);
  }
};

Fixture& fixture() {
  static auto* f = new Fixture;  // lives for the process: no teardown order to get wrong
  return *f;
}

void append_frame(std::string& out, std::uint8_t header, const std::uint8_t* payload,
                  std::size_t length) {
  std::uint8_t opcode = kOpcodes[header % 6];
  if ((header & 0x40) != 0) opcode = static_cast<std::uint8_t>((header >> 2) & 0x0f);
  bool fin = (header & 0x80) == 0;
  bool masked = (header & 0x20) == 0;
  out.push_back(static_cast<char>((fin ? 0x80 : 0) | opcode));
  std::uint8_t mask_bit = masked ? 0x80 : 0;
  if (length < 126) {
    out.push_back(static_cast<char>(mask_bit | length));
  } else {
    out.push_back(static_cast<char>(mask_bit | 126));
    out.push_back(static_cast<char>((length >> 8) & 0xff));
    out.push_back(static_cast<char>(length & 0xff));
  }
  if (masked) out.append(reinterpret_cast<const char*>(kMask), 4);
  for (std::size_t i = 0; i < length; ++i)
    out.push_back(static_cast<char>(payload[i] ^ (masked ? kMask[i % 4] : 0)));
}

std::string frames_of(const std::uint8_t* data, std::size_t size) {
  std::string out;
  std::size_t pos = 0;
  while (pos + 2 <= size) {
    std::uint8_t header = data[pos++];
    std::size_t length = data[pos++];
    if (length == 255 && pos + 2 <= size) {
      length = (std::size_t{data[pos]} << 8) | data[pos + 1];
      pos += 2;
    }
    length = std::min(length, size - pos);
    append_frame(out, header, data + pos, length);
    pos += length;
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  Fixture& f = fixture();
  std::string bytes = (data[0] & 1) != 0
                          ? std::string(reinterpret_cast<const char*>(data) + 1, size - 1)
                          : frames_of(data + 1, size - 1);

  // Each connection from another loopback address (127.1.0.0/16, in turn): hundreds of
  // connections a second from one address run out of ports while the closed ones sit in
  // TIME_WAIT (the first long run stopped there after 445,000 inputs).
  static std::uint32_t next_source = 0;
  auto source = asio::ip::make_address_v4((127u << 24) | (1u << 16) | (next_source++ & 0xffffu));
  boost::system::error_code ec;
  tcp::socket client(f.io);
  client.open(tcp::v4(), ec);
  if (!ec) client.bind(tcp::endpoint(source, 0), ec);
  if (!ec) client.connect(f.acceptor.local_endpoint(), ec);
  if (ec) return 0;  // the harness's own trouble, not the window's
  tcp::socket server = f.acceptor.accept(ec);
  if (ec) return 0;

  http::request<http::string_body> request{http::verb::get, "/ws?k=fuzz", 11};
  request.set(http::field::host, "127.0.0.1");
  request.set(http::field::upgrade, "websocket");
  request.set(http::field::connection, "Upgrade");
  request.set(http::field::sec_websocket_key, "dGhlIHNhbXBsZSBub25jZQ==");
  request.set(http::field::sec_websocket_version, "13");
  std::weak_ptr<wharf::server::WebSocketSession> alive;
  {
    auto window = std::make_shared<wharf::server::WebSocketSession>(
        wharf::server::ServerStream(std::move(server)), f.context);
    alive = window;
    window->start(std::move(request), wharf::core::TerminalSize{80, 24});
  }

  bool read_done = false;
  asio::async_write(client, asio::buffer(bytes), [&](boost::system::error_code, std::size_t) {
    boost::system::error_code ignored;
    client.shutdown(tcp::socket::shutdown_send, ignored);
  });
  // Whatever the window says is read and dropped, so its writes never stall.
  auto sink = std::make_shared<std::array<char, 16384>>();
  std::function<void()> read_more = [&] {
    client.async_read_some(asio::buffer(*sink), [&](boost::system::error_code ec, std::size_t) {
      if (ec) {
        read_done = true;
        return;
      }
      read_more();
    });
  };
  read_more();

  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  f.io.restart();
  while (!(read_done && alive.expired())) {
    f.io.run_one_for(std::chrono::milliseconds(100));
    if (std::chrono::steady_clock::now() > deadline) std::abort();  // a window that never ends
  }
  boost::system::error_code ignored;
  client.close(ignored);
  f.io.restart();
  f.io.poll();
  return 0;
}
