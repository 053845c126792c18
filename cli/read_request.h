// The CLI's bounded reader: a request file or standard input, read to at
// most the request limit + 1 byte, whatever the file is (fuzz/fuzz_read_request.cpp).
#pragma once

#include <cstddef>
#include <string>

namespace gpuplan::cli {

// What reading the request gave: its text (at most kMaxRequestBytes + 1
// bytes), its whole size when the file says it (0 when not: a pipe), or why
// it could not be read (empty when it could).
struct Input {
  std::string text;
  std::size_t size_bytes = 0;
  std::string failure;
};

// `name` is a path, or "-" for standard input. A directory, a device or a
// socket is refused (failure says so); a regular file or a pipe is read.
Input read_request(const char* name);

// The same on an open descriptor; `named` false for standard input (which
// may be a terminal or a device a shell redirected: read, bounded).
Input read_request_fd(int fd, bool named);

}  // namespace gpuplan::cli
