#include "core/host_protocol.hpp"

#include <boost/json.hpp>
#include <cstring>
#include <limits>
#include <type_traits>

namespace wharf::core::host {
namespace json = boost::json;

namespace {

constexpr std::uint8_t kLastFrameType = static_cast<std::uint8_t>(FrameType::kWritten);

// Reads typed fields out of one JSON object, remembering the first thing that was wrong
// so a parser reads every field and reports once.
class Fields {
 public:
  explicit Fields(const json::object* object) : object_(object) {}

  std::string text(std::string_view name) {
    const json::value* v = find(name);
    if (v == nullptr) return {};
    if (!v->is_string()) return fail(name, "a string"), std::string{};
    return std::string(v->get_string());
  }
  std::int64_t number(std::string_view name) {
    const json::value* v = find(name);
    if (v == nullptr) return 0;
    if (v->is_int64()) return v->get_int64();
    if (v->is_uint64() && v->get_uint64() <= std::numeric_limits<std::int64_t>::max())
      return static_cast<std::int64_t>(v->get_uint64());
    return fail(name, "an integer"), 0;
  }
  std::uint64_t unsigned_number(std::string_view name) {
    const json::value* v = find(name);
    if (v == nullptr) return 0;
    if (v->is_uint64()) return v->get_uint64();
    if (v->is_int64() && v->get_int64() >= 0) return static_cast<std::uint64_t>(v->get_int64());
    return fail(name, "a non-negative integer"), 0;
  }
  int small(std::string_view name, int low, int high) {
    std::int64_t n = number(name);
    if (n < low || n > high) return fail(name, "a number in range"), low;
    return static_cast<int>(n);
  }
  bool flag(std::string_view name) {
    const json::value* v = find(name);
    if (v == nullptr) return false;
    if (!v->is_bool()) return fail(name, "true or false"), false;
    return v->get_bool();
  }
  std::vector<std::string> texts(std::string_view name) {
    std::vector<std::string> out;
    const json::value* v = find(name);
    if (v == nullptr) return out;
    if (!v->is_array()) return fail(name, "a list of strings"), out;
    for (const json::value& item : v->get_array()) {
      if (!item.is_string()) return fail(name, "a list of strings"), out;
      out.emplace_back(item.get_string());
    }
    return out;
  }
  bool has(std::string_view name) const { return find(name) != nullptr; }
  const json::object* object(std::string_view name) {
    const json::value* v = find(name);
    if (v == nullptr) return nullptr;
    if (!v->is_object()) return fail(name, "an object"), nullptr;
    return &v->get_object();
  }
  void fail(std::string_view name, std::string_view what) {
    if (error_.empty()) error_ = "field '" + std::string(name) + "' must be " + std::string(what);
  }
  const std::string& error() const { return error_; }

 private:
  const json::value* find(std::string_view name) const {
    if (object_ == nullptr) return nullptr;
    const json::value* v = object_->if_contains(name);
    return (v == nullptr || v->is_null()) ? nullptr : v;
  }
  const json::object* object_;
  std::string error_;
};

Result<json::object> parse_object(std::string_view text) {
  boost::system::error_code ec;
  json::value value = json::parse(text, ec);
  if (ec) return Error{"not JSON: " + ec.message(), "protocol"};
  if (!value.is_object()) return Error{"not a JSON object", "protocol"};
  return std::move(value.get_object());
}

std::string dump(const json::object& object) {
  return json::serialize(object);
}

json::object meta_object(const SessionMeta& meta) {
  return json::object{{"id", meta.id},
                      {"run_id", meta.run_id},
                      {"program", meta.program},
                      {"kind", meta.kind},
                      {"custom_name", meta.custom_name},
                      {"cwd", meta.cwd},
                      {"created_ms", meta.created_ms},
                      {"creator", meta.creator},
                      {"shared_shell", meta.shared_shell},
                      {"shell_integration", meta.shell_integration},
                      {"position", meta.position},
                      {"keep_screen", meta.keep_screen},
                      {"activity", meta.activity},
                      {"capabilities", capabilities_object(meta.capabilities)}};
}

SessionMeta read_meta(Fields& f) {
  SessionMeta meta;
  meta.id = f.unsigned_number("id");
  meta.run_id = f.number("run_id");
  meta.program = f.text("program");
  meta.kind = f.text("kind");
  meta.custom_name = f.text("custom_name");
  meta.cwd = f.text("cwd");
  meta.created_ms = f.number("created_ms");
  meta.creator = f.text("creator");
  meta.shared_shell = f.flag("shared_shell");
  meta.shell_integration = f.flag("shell_integration");
  meta.position = f.number("position");
  meta.keep_screen = f.has("keep_screen") ? f.flag("keep_screen") : true;
  meta.activity = f.text("activity");
  // A host from before sandboxes says nothing: its session runs unsandboxed.
  if (const json::object* given = f.object("capabilities"); given != nullptr) {
    auto read = capabilities_from(*given);
    if (read)
      meta.capabilities = std::move(read.value());
    else
      f.fail("capabilities", "capabilities as capabilities_object() writes them");
  }
  if (meta.id == 0) f.fail("id", "a session id");
  return meta;
}

json::object size_object(const TerminalSize& size) {
  return json::object{{"cols", size.cols}, {"rows", size.rows}};
}

TerminalSize read_size(Fields& f) {
  TerminalSize size;
  size.cols = static_cast<std::uint16_t>(f.small("cols", 1, 65535));
  size.rows = static_cast<std::uint16_t>(f.small("rows", 1, 65535));
  return size;
}

json::object exit_object(const ExitStatus& status) {
  json::object out;
  out["code"] = status.code ? json::value(*status.code) : json::value(nullptr);
  out["signal"] = status.signal ? json::value(*status.signal) : json::value(nullptr);
  return out;
}

ExitStatus read_exit(const json::object& object, Fields& outer) {
  ExitStatus status;
  for (auto [name, into] : {std::pair{"code", &status.code}, std::pair{"signal", &status.signal}}) {
    const json::value* v = object.if_contains(name);
    if (v == nullptr || v->is_null()) continue;
    if (!v->is_int64() || v->get_int64() < -1024 || v->get_int64() > 1024) {
      outer.fail(name, "a small integer");
      continue;
    }
    *into = static_cast<int>(v->get_int64());
  }
  return status;
}

// Parses `text` as one JSON object and reads it with `read(fields, object)`; the first
// field that was wrong, if any, is the error.
template <class Read>
auto parse_with(std::string_view text, Read read)
    -> Result<std::invoke_result_t<Read, Fields&, const json::object&>> {
  auto object = parse_object(text);
  if (!object) return object.error();
  Fields f(&object.value());
  auto value = read(f, object.value());
  if (!f.error().empty()) return Error{f.error(), "protocol"};
  return value;
}

}  // namespace

std::string_view frame_type_name(FrameType type) {
  switch (type) {
    case FrameType::kSpawn:
      return "spawn";
    case FrameType::kHello:
      return "hello";
    case FrameType::kState:
      return "state";
    case FrameType::kSnapshot:
      return "snapshot";
    case FrameType::kOutput:
      return "output";
    case FrameType::kInput:
      return "input";
    case FrameType::kResize:
      return "resize";
    case FrameType::kEnd:
      return "end";
    case FrameType::kFinished:
      return "finished";
    case FrameType::kRecorded:
      return "recorded";
    case FrameType::kMeta:
      return "meta";
    case FrameType::kRefused:
      return "refused";
    case FrameType::kRelease:
      return "release";
    case FrameType::kWritten:
      return "written";
  }
  return "unknown";
}

void append_frame(std::string& out, FrameType type, std::string_view payload) {
  if (payload.size() > kMaxFramePayload) std::abort();  // callers bound what they send
  auto n = static_cast<std::uint32_t>(payload.size());
  char header[kFrameHeaderBytes] = {
      static_cast<char>(type), static_cast<char>(n & 0xff), static_cast<char>((n >> 8) & 0xff),
      static_cast<char>((n >> 16) & 0xff), static_cast<char>((n >> 24) & 0xff)};
  out.append(header, kFrameHeaderBytes);
  out.append(payload);
}

std::string encode_frame(FrameType type, std::string_view payload) {
  std::string out;
  out.reserve(kFrameHeaderBytes + payload.size());
  append_frame(out, type, payload);
  return out;
}

void FrameReader::feed(std::string_view bytes) {
  if (failed()) return;
  // Consumed bytes are dropped before growing, so the buffer holds at most one frame
  // plus one read.
  if (start_ > 0 && (start_ == buffer_.size() || start_ > (1u << 16))) {
    buffer_.erase(0, start_);
    start_ = 0;
  }
  buffer_.append(bytes);
}

std::optional<Frame> FrameReader::next() {
  if (failed() || buffer_.size() - start_ < kFrameHeaderBytes) return std::nullopt;
  const auto* p = reinterpret_cast<const unsigned char*>(buffer_.data() + start_);
  if (p[0] == 0 || p[0] > kLastFrameType) {
    error_ = "unknown frame type " + std::to_string(p[0]);
    return std::nullopt;
  }
  std::uint32_t n = static_cast<std::uint32_t>(p[1]) | (static_cast<std::uint32_t>(p[2]) << 8) |
                    (static_cast<std::uint32_t>(p[3]) << 16) |
                    (static_cast<std::uint32_t>(p[4]) << 24);
  if (n > kMaxFramePayload) {
    error_ = "a frame of " + std::to_string(n) + " bytes is past the limit";
    return std::nullopt;
  }
  if (buffer_.size() - start_ < kFrameHeaderBytes + n) return std::nullopt;
  Frame frame{static_cast<FrameType>(p[0]), buffer_.substr(start_ + kFrameHeaderBytes, n)};
  start_ += kFrameHeaderBytes + n;
  return frame;
}

std::string to_json(const SpawnRequest& r) {
  json::array argv(r.argv.begin(), r.argv.end());
  json::array env(r.env.begin(), r.env.end());
  return dump(json::object{
      {"protocol", r.protocol},
      {"program", r.program},
      {"argv", std::move(argv)},
      {"env", std::move(env)},
      {"cwd", r.cwd},
      {"size", size_object(r.size)},
      {"ending", json::object{{"hangup_ms", r.ending.hangup_ms},
                              {"terminate_ms", r.ending.terminate_ms},
                              {"poll_ms", r.ending.poll_ms}}},
      {"meta", meta_object(r.meta)},
  });
}

std::string to_json(const Hello& hello) {
  return dump(json::object{{"protocol", hello.protocol}});
}

std::string to_json(const HostState& s) {
  json::object out{{"protocol", s.protocol},
                   {"version", s.version},
                   {"pid", s.pid},
                   {"host_pid", s.host_pid},
                   {"size", size_object(s.size)},
                   {"bytes_out", s.bytes_out},
                   {"bytes_in", s.bytes_in},
                   {"ending", s.ending},
                   {"output_age_ms", s.output_age_ms},
                   {"input_age_ms", s.input_age_ms},
                   {"meta", meta_object(s.meta)}};
  if (s.finished) out["finished"] = exit_object(*s.finished);
  return dump(out);
}

std::string to_json(const SessionMeta& meta) {
  return dump(meta_object(meta));
}

std::string to_json(const ExitStatus& status) {
  return dump(exit_object(status));
}

std::string to_json(const TerminalSize& size) {
  return dump(size_object(size));
}

std::string to_json(const Refusal& refusal) {
  return dump(json::object{{"message", refusal.message}, {"code", refusal.code}});
}

Result<SpawnRequest> parse_spawn(std::string_view text) {
  return parse_with(text, [](Fields& f, const json::object&) {
    SpawnRequest r;
    r.protocol = f.small("protocol", 0, 1 << 20);
    r.program = f.text("program");
    r.argv = f.texts("argv");
    r.env = f.texts("env");
    r.cwd = f.text("cwd");
    Fields size(f.object("size"));
    r.size = read_size(size);
    Fields ending(f.object("ending"));
    r.ending.hangup_ms = ending.number("hangup_ms");
    r.ending.terminate_ms = ending.number("terminate_ms");
    r.ending.poll_ms = ending.number("poll_ms");
    Fields meta(f.object("meta"));
    r.meta = read_meta(meta);
    if (r.program.empty()) f.fail("program", "a path");
    if (r.argv.empty()) f.fail("argv", "a list with at least argv[0]");
    if (r.ending.poll_ms <= 0 || r.ending.hangup_ms < 0 || r.ending.terminate_ms < 0)
      f.fail("ending", "positive times");
    for (const Fields* inner : {&size, &ending, &meta})
      if (!inner->error().empty()) f.fail("spawn", inner->error());
    return r;
  });
}

Result<Hello> parse_hello(std::string_view text) {
  return parse_with(text, [](Fields& f, const json::object&) {
    return Hello{.protocol = f.small("protocol", 0, 1 << 20)};
  });
}

Result<HostState> parse_state(std::string_view text) {
  return parse_with(text, [](Fields& f, const json::object&) {
    HostState s;
    // The version comes first and alone decides whether the rest can be read.
    s.protocol = f.small("protocol", 0, 1 << 20);
    s.version = f.text("version");
    if (!f.error().empty() || s.protocol != kProtocolVersion) return s;
    s.pid = f.small("pid", 0, std::numeric_limits<int>::max());
    s.host_pid = f.small("host_pid", 0, std::numeric_limits<int>::max());
    Fields size(f.object("size"));
    s.size = read_size(size);
    s.bytes_out = f.unsigned_number("bytes_out");
    s.bytes_in = f.unsigned_number("bytes_in");
    s.ending = f.flag("ending");
    s.output_age_ms = f.number("output_age_ms");
    s.input_age_ms = f.number("input_age_ms");
    if (const json::object* finished = f.object("finished")) s.finished = read_exit(*finished, f);
    Fields meta(f.object("meta"));
    s.meta = read_meta(meta);
    for (const Fields* inner : {&size, &meta})
      if (!inner->error().empty()) f.fail("state", inner->error());
    return s;
  });
}

Result<SessionMeta> parse_meta(std::string_view text) {
  return parse_with(text, [](Fields& f, const json::object&) { return read_meta(f); });
}

Result<ExitStatus> parse_exit(std::string_view text) {
  return parse_with(text,
                    [](Fields& f, const json::object& object) { return read_exit(object, f); });
}

Result<TerminalSize> parse_size(std::string_view text) {
  return parse_with(text, [](Fields& f, const json::object&) { return read_size(f); });
}

std::string written_payload(std::uint64_t bytes) {
  return std::to_string(bytes);
}

std::optional<std::uint64_t> parse_written(std::string_view text) {
  if (text.empty() || text.size() > 19 || text.find_first_not_of("0123456789") != text.npos)
    return std::nullopt;
  return std::stoull(std::string(text));
}

Result<Refusal> parse_refusal(std::string_view text) {
  return parse_with(text, [](Fields& f, const json::object&) {
    return Refusal{f.text("message"), f.text("code")};
  });
}

}  // namespace wharf::core::host
