// Request heads, target paths, Range and static responses of the dev server (RFC 9110, RFC 9112).
#include "server/serve_request.hpp"
#include "site/csp.hpp"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <limits>
#include <sstream>
#include <vector>

namespace bb::server {

namespace fs = std::filesystem;

namespace {

bool is_tchar(char c) {
  if (c >= '0' && c <= '9') return true;
  if ((c | 0x20) >= 'a' && (c | 0x20) <= 'z') return true;
  return c != '\0' && std::strchr("!#$%&'*+-.^_`|~", c) != nullptr;
}

// Field values may hold visible characters, spaces, tabs and obs-text, never other controls.
bool is_field_value(std::string_view v) {
  return std::all_of(v.begin(), v.end(), [](char c) {
    auto u = static_cast<unsigned char>(c);
    return u == '\t' || (u >= 0x20 && u != 0x7f);
  });
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return out;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

bool all_digits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), is_digit);
}

// Digits to a number that saturates instead of overflowing: a position past any file is still past it.
std::uint64_t saturating(std::string_view digits) {
  std::uint64_t v = 0;
  constexpr auto max = std::numeric_limits<std::uint64_t>::max();
  for (char c : digits) {
    auto d = static_cast<std::uint64_t>(c - '0');
    v = v > (max - d) / 10 ? max : v * 10 + d;
  }
  return v;
}

ParsedHead error(int status, std::size_t consumed) {
  ParsedHead r;
  r.status = ParsedHead::Status::Error;
  r.error = status;
  r.consumed = consumed;
  return r;
}

const char* reason(int status) {
  switch (status) {
    case 200: return "OK";
    case 206: return "Partial Content";
    case 400: return "Bad Request";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 413: return "Content Too Large";
    case 416: return "Range Not Satisfiable";
    case 431: return "Request Header Fields Too Large";
    case 503: return "Service Unavailable";
    case 505: return "HTTP Version Not Supported";
    default: return "Error";
  }
}

std::string status_line(int status) {
  return "HTTP/1.1 " + std::to_string(status) + " " + reason(status) + "\r\n";
}

std::optional<std::string> slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream ss;
  ss << in.rdbuf();
  return std::move(ss).str();
}

}  // namespace

ParsedHead parse_request_head(std::string_view buf) {
  // RFC 9112 §2.2: empty lines before the request line are ignored; LF alone ends a line too.
  std::size_t start = 0;
  while (start < buf.size() &&
         (buf[start] == '\n' || (buf[start] == '\r' && start + 1 < buf.size() && buf[start + 1] == '\n')))
    start += buf[start] == '\r' ? 2 : 1;

  std::vector<std::string_view> lines;
  std::size_t pos = start, end = std::string_view::npos;
  while (pos < buf.size()) {
    std::size_t nl = buf.find('\n', pos);
    if (nl == std::string_view::npos) break;
    std::string_view line = buf.substr(pos, nl - pos);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    pos = nl + 1;
    if (line.empty()) {
      end = pos;
      break;
    }
    lines.push_back(line);
    if (pos > kMaxRequestHead) break;
  }
  if (end == std::string_view::npos) {
    if (buf.size() > kMaxRequestHead) return error(431, buf.size());
    ParsedHead r;
    return r;  // incomplete
  }
  if (end > kMaxRequestHead) return error(431, end);
  if (lines.empty()) return error(400, end);

  // Request line: method SP request-target SP HTTP-version, single spaces, nothing else.
  std::string_view rl = lines.front();
  std::size_t sp1 = rl.find(' ');
  std::size_t sp2 = sp1 == std::string_view::npos ? sp1 : rl.find(' ', sp1 + 1);
  if (sp2 == std::string_view::npos || rl.find(' ', sp2 + 1) != std::string_view::npos)
    return error(400, end);
  std::string_view method = rl.substr(0, sp1);
  std::string_view target = rl.substr(sp1 + 1, sp2 - sp1 - 1);
  std::string_view version = rl.substr(sp2 + 1);
  if (method.empty() || !std::all_of(method.begin(), method.end(), is_tchar)) return error(400, end);
  if (target.empty() || !std::all_of(target.begin(), target.end(), [](char c) {
        auto u = static_cast<unsigned char>(c);
        return u > 0x20 && u != 0x7f;
      }))
    return error(400, end);
  bool http11 = version == "HTTP/1.1";
  if (!http11 && version != "HTTP/1.0") {
    bool shaped = version.size() == 8 && version.starts_with("HTTP/") && is_digit(version[5]) &&
                  version[6] == '.' && is_digit(version[7]);
    return error(shaped ? 505 : 400, end);
  }

  ParsedHead r;
  HttpRequest& req = r.request;
  req.method = std::string(method);
  req.target = std::string(target);
  req.keep_alive = http11;
  int hosts = 0, ranges = 0;
  std::optional<std::string> content_length;
  bool body = false;
  for (std::size_t i = 1; i < lines.size(); ++i) {
    std::string_view line = lines[i];
    if (line.front() == ' ' || line.front() == '\t') return error(400, end);  // obsolete line folding
    std::size_t colon = line.find(':');
    if (colon == std::string_view::npos || colon == 0) return error(400, end);
    std::string_view name_raw = line.substr(0, colon);
    if (!std::all_of(name_raw.begin(), name_raw.end(), is_tchar)) return error(400, end);
    std::string_view value = trim(line.substr(colon + 1));
    if (!is_field_value(value)) return error(400, end);
    std::string name = lower(name_raw);
    if (name == "host") {
      ++hosts;
    } else if (name == "connection") {
      std::string v = lower(value);
      std::size_t p = 0;
      while (p <= v.size()) {
        std::size_t comma = std::min(v.find(',', p), v.size());
        if (trim(std::string_view(v).substr(p, comma - p)) == "close") req.keep_alive = false;
        p = comma + 1;
      }
    } else if (name == "range") {
      ++ranges;
      req.range = std::string(value);
    } else if (name == "if-range") {
      req.if_range = true;
    } else if (name == "content-length") {
      if (!all_digits(value) || (content_length && *content_length != value)) return error(400, end);
      content_length = std::string(value);
      body = body || saturating(value) != 0;
    } else if (name == "transfer-encoding") {
      body = true;
    }
  }
  if (http11 && hosts != 1) return error(400, end);  // RFC 9112 §3.2
  if (ranges > 1) req.range.reset();                 // which one was meant? Neither.
  if (body) return error(413, end);
  if (req.method != "GET" && req.method != "HEAD") return error(405, end);
  auto path = decode_target_path(target);
  if (!path) return error(400, end);
  req.path = std::move(*path);
  r.status = ParsedHead::Status::Ok;
  r.consumed = end;
  return r;
}

std::optional<std::string> decode_target_path(std::string_view target) {
  if (target.empty() || target.front() != '/') return std::nullopt;
  target = target.substr(0, std::min(target.find('?'), target.find('#')));
  auto hex = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f') return (c | 0x20) - 'a' + 10;
    return -1;
  };
  std::string out;
  out.reserve(target.size());
  for (std::size_t i = 0; i < target.size(); ++i) {
    if (target[i] != '%') {
      out += target[i];
      continue;
    }
    if (i + 2 >= target.size() || hex(target[i + 1]) < 0 || hex(target[i + 2]) < 0) return std::nullopt;
    out += static_cast<char>(hex(target[i + 1]) * 16 + hex(target[i + 2]));
    i += 2;
  }
  return out;
}

std::optional<fs::path> resolve_request_path(const fs::path& root, const std::string& path) {
  if (path.empty() || path.front() != '/') return std::nullopt;
  if (path.find('\0') != std::string::npos || path.find('\\') != std::string::npos) return std::nullopt;
  fs::path rel;
  std::size_t pos = 1;
  while (pos <= path.size()) {
    std::size_t next = path.find('/', pos);
    if (next == std::string::npos) next = path.size();
    std::string seg = path.substr(pos, next - pos);
    if (seg == "..") return std::nullopt;
    if (!seg.empty() && seg != ".") rel /= seg;
    pos = next + 1;
  }
  std::error_code ec;
  fs::path base = fs::canonical(root, ec);
  if (ec) return std::nullopt;
  fs::path target = base / rel;
  if (fs::is_directory(target, ec)) target /= "index.html";
  fs::path real = fs::canonical(target, ec);  // follows symlinks: they must stay inside too
  if (ec || !fs::is_regular_file(real, ec)) return std::nullopt;
  auto [b, r] = std::mismatch(base.begin(), base.end(), real.begin(), real.end());
  if (b != base.end()) return std::nullopt;
  return real;
}

RangeDecision decide_range(std::string_view value, std::uint64_t size) {
  RangeDecision full;  // Kind::Full
  value = trim(value);
  std::size_t eq = value.find('=');
  if (eq == std::string_view::npos || lower(value.substr(0, eq)) != "bytes") return full;
  // range-set = 1#range-spec; empty list elements are allowed and ignored (RFC 9110 §5.6.1).
  std::string_view spec;
  int specs = 0;
  std::string_view set = value.substr(eq + 1);
  std::size_t p = 0;
  while (p <= set.size()) {
    std::size_t comma = std::min(set.find(',', p), set.size());
    std::string_view element = trim(set.substr(p, comma - p));
    if (!element.empty()) {
      spec = element;
      ++specs;
    }
    p = comma + 1;
  }
  if (specs != 1) return full;  // none, or several: the whole file
  std::size_t dash = spec.find('-');
  if (dash == std::string_view::npos) return full;
  std::string_view a = spec.substr(0, dash), b = spec.substr(dash + 1);
  RangeDecision r;
  if (a.empty()) {  // suffix-range: the last N bytes
    if (!all_digits(b)) return full;
    std::uint64_t n = saturating(b);
    if (n == 0) return {RangeDecision::Kind::Unsatisfiable, 0, 0};
    if (size == 0) return full;  // no byte to select; the empty file itself
    r.kind = RangeDecision::Kind::Partial;
    r.first = n >= size ? 0 : size - n;
    r.last = size - 1;
    return r;
  }
  if (!all_digits(a) || (!b.empty() && !all_digits(b))) return full;
  std::uint64_t first = saturating(a);
  std::uint64_t last = b.empty() ? std::numeric_limits<std::uint64_t>::max() : saturating(b);
  if (last < first) return full;  // an invalid range-spec: ignored
  if (first >= size) return {RangeDecision::Kind::Unsatisfiable, 0, 0};
  r.kind = RangeDecision::Kind::Partial;
  r.first = first;
  r.last = std::min(last, size - 1);
  return r;
}

std::string content_type(const fs::path& p) {
  std::string ext = p.extension().string();
  if (ext == ".html") return "text/html; charset=utf-8";
  if (ext == ".css") return "text/css; charset=utf-8";
  if (ext == ".js" || ext == ".mjs") return "text/javascript; charset=utf-8";
  if (ext == ".json") return "application/json; charset=utf-8";
  if (ext == ".svg") return "image/svg+xml";
  if (ext == ".png") return "image/png";
  if (ext == ".jpg" || ext == ".jpeg") return "image/jpeg";
  if (ext == ".gif") return "image/gif";
  if (ext == ".webp") return "image/webp";
  if (ext == ".pdf") return "application/pdf";
  if (ext == ".xml") return "application/xml; charset=utf-8";
  if (ext == ".txt" || ext == ".md") return "text/plain; charset=utf-8";
  return "application/octet-stream";
}

HttpResponse respond_error(int status) {
  HttpResponse res;
  res.status = status;
  res.close = true;
  auto body = std::make_shared<std::string>(std::to_string(status) + " " + reason(status) + "\n");
  res.head = status_line(status) +
             "Content-Type: text/plain; charset=utf-8\r\nContent-Length: " + std::to_string(body->size()) +
             "\r\n" + (status == 405 ? "Allow: GET, HEAD\r\n" : "") + "Connection: close\r\n\r\n";
  res.body = std::move(body);
  res.length = res.body->size();
  return res;
}

HttpResponse respond_static(const fs::path& root, const HttpRequest& request) {
  HttpResponse res;
  res.close = !request.keep_alive;
  const bool head_only = request.method == "HEAD";
  std::optional<std::string> bytes;
  auto file = resolve_request_path(root, request.path);
  if (file) bytes = slurp(*file);
  std::string type = file ? content_type(*file) : "text/html; charset=utf-8";
  std::string extra;
  if (!bytes) {
    res.status = 404;
    auto page = resolve_request_path(root, "/404.html");
    if (page) bytes = slurp(*page);
    if (!bytes) bytes = "<!doctype html><title>404</title><h1>404 Not found</h1>\n";
    type = "text/html; charset=utf-8";
  }
  auto body = std::make_shared<const std::string>(std::move(*bytes));
  res.offset = 0;
  res.length = body->size();
  if (res.status == 200) {
    extra = "Accept-Ranges: bytes\r\n";
    if (request.range && !request.if_range) {
      RangeDecision d = decide_range(*request.range, body->size());
      if (d.kind == RangeDecision::Kind::Partial) {
        res.status = 206;
        res.offset = static_cast<std::size_t>(d.first);
        res.length = static_cast<std::size_t>(d.last - d.first + 1);
        extra += "Content-Range: bytes " + std::to_string(d.first) + "-" + std::to_string(d.last) + "/" +
                 std::to_string(body->size()) + "\r\n";
      } else if (d.kind == RangeDecision::Kind::Unsatisfiable) {
        HttpResponse u;
        u.status = 416;
        u.close = res.close;
        auto text = std::make_shared<const std::string>("416 Range Not Satisfiable\n");
        u.head = status_line(416) + "Content-Type: text/plain; charset=utf-8\r\nContent-Length: " +
                 std::to_string(text->size()) + "\r\nContent-Range: bytes */" + std::to_string(body->size()) +
                 "\r\nCache-Control: no-store\r\n" + (u.close ? "Connection: close\r\n" : "") + "\r\n";
        u.body = std::move(text);
        u.length = head_only ? 0 : u.body->size();
        return u;
      }
    }
  }
  res.head = status_line(res.status) + "Content-Type: " + type +
             "\r\nContent-Length: " + std::to_string(res.length) + "\r\n" + extra +
             "Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\n" +
             site::content_security_policy_header(type, *body) + (res.close ? "Connection: close\r\n" : "") +
             "\r\n";
  res.body = std::move(body);
  if (head_only) res.length = 0;
  return res;
}

}  // namespace bb::server
