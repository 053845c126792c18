// Fuzzes the CLI's bounded reader (cli/read_request.cpp) and the size rule
// the front ends share: the input, written to a pipe and to a regular file
// (repeated past the request limit when its first byte is odd), must come
// back byte for byte up to the limit + 1 and no further, the file's size
// exact; and a request over the limit must get the same too_large reply from
// its head (what the CLI, the page's module and the Node module pass) as
// from the whole text (plan_json).
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <csignal>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <thread>

#include "gpuplan/api.h"
#include "gpuplan/request.h"
#include "read_request.h"

namespace {

void check(const std::string& text, const gpuplan::cli::Input& in, bool sized) {
  if (!in.failure.empty()) std::abort();
  const std::size_t most = gpuplan::kMaxRequestBytes + 1;
  if (in.text != std::string_view(text).substr(0, most)) std::abort();
  if (sized && in.size_bytes != text.size()) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // The reader stops at the limit + 1 byte; the writer then meets a closed pipe.
  std::signal(SIGPIPE, SIG_IGN);
  std::string text(reinterpret_cast<const char*>(data), size);
  if (size > 0 && (data[0] & 1) && size < gpuplan::kMaxRequestBytes) {
    while (text.size() <= gpuplan::kMaxRequestBytes) text.append(reinterpret_cast<const char*>(data), size);
  }

  // A regular file (in memory).
  const int file = ::memfd_create("request", MFD_CLOEXEC);
  if (file < 0) return 0;
  if (::write(file, text.data(), text.size()) != ssize_t(text.size())) std::abort();
  ::lseek(file, 0, SEEK_SET);
  check(text, gpuplan::cli::read_request_fd(file, true), true);
  ::close(file);

  // A pipe, written by another thread as a shell's producer would.
  int fds[2];
  if (::pipe(fds) != 0) return 0;
  std::thread writer([&] {
    std::size_t done = 0;
    while (done < text.size()) {
      const ssize_t n = ::write(fds[1], text.data() + done, text.size() - done);
      if (n <= 0) break;  // the reader stopped at the limit and closed its end
      done += std::size_t(n);
    }
    ::close(fds[1]);
  });
  const gpuplan::cli::Input piped = gpuplan::cli::read_request_fd(fds[0], false);
  ::close(fds[0]);
  writer.join();
  check(text, piped, false);

  if (text.size() > gpuplan::kMaxRequestBytes) {
    const gpuplan::JsonReply whole = gpuplan::plan_json(text);
    const gpuplan::JsonReply head = gpuplan::too_large_json(std::string_view(text).substr(0, gpuplan::kMaxRequestBytes), text.size());
    if (whole.exit_code != 2 || head.exit_code != 2 || whole.json != head.json) std::abort();
  }
  return 0;
}
