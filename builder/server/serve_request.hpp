// What the dev server makes of a client's bytes: the request head (HTTP/1.x), the decoded target
// path, the Range header (RFC 9110 §14) and the static-file response. Pure functions over bytes and
// the site folder, so they are unit-tested and fuzzed without a socket.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace bb::server {

// The longest request head accepted (request line and headers); longer gets 431.
inline constexpr std::size_t kMaxRequestHead = 16 * 1024;

struct HttpRequest {
  std::string method;
  std::string target;  // as sent
  std::string path;    // percent-decoded, without query or fragment
  bool keep_alive = true;
  std::optional<std::string> range;  // the Range value; unset when absent or sent twice
  bool if_range = false;             // If-Range present: we have no validators, so Range is ignored
};

struct ParsedHead {
  enum class Status { Incomplete, Ok, Error } status = Status::Incomplete;
  std::size_t consumed = 0;  // bytes of the head, terminator included (Ok only)
  int error = 0;             // the status code to answer with (Error only): 400, 405, 431, 505
  HttpRequest request;
};

// Parses one request head at the start of `buffer`. A request with a body (Content-Length other than
// 0, or Transfer-Encoding) is an error: the dev server only answers GET and HEAD.
ParsedHead parse_request_head(std::string_view buffer);

// The path of an origin-form target: query and fragment dropped, %XX decoded once. Nullopt when the
// target is not origin-form or an escape is malformed.
std::optional<std::string> decode_target_path(std::string_view target);

// Maps a decoded request path to a file inside `root`, or nullopt when it would leave the folder
// (`..`, symlinks out, NUL or backslash) or names nothing. Folders map to their index.html.
std::optional<std::filesystem::path> resolve_request_path(const std::filesystem::path& root,
                                                          const std::string& path);

// What to send for a Range header on a representation of `size` bytes. One range only: a request
// for several ranges gets the whole file (RFC 9110 lets a server ignore Range), as does a Range that
// does not parse or is not in bytes.
struct RangeDecision {
  enum class Kind { Full, Partial, Unsatisfiable } kind = Kind::Full;
  std::uint64_t first = 0;  // Partial: first and last byte, last < size
  std::uint64_t last = 0;
};
RangeDecision decide_range(std::string_view value, std::uint64_t size);

// A response to write: `head` (status line and headers), then bytes [offset, offset + length) of
// `body`. The body is shared so that a file read once can be sent to a slow client without copying.
struct HttpResponse {
  int status = 200;
  std::string head;
  std::shared_ptr<const std::string> body;
  std::size_t offset = 0;
  std::size_t length = 0;
  bool close = false;  // close the connection once sent
};

// The answer to GET or HEAD of a file under `root`: 200, 206, 404 (the site's 404.html) or 416.
HttpResponse respond_static(const std::filesystem::path& root, const HttpRequest& request);

// A short error answer (400, 405, 431, 505, 503) that closes the connection.
HttpResponse respond_error(int status);

std::string content_type(const std::filesystem::path& file);

}  // namespace bb::server
