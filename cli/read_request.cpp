#include "read_request.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string_view>

#include "gpuplan/request.h"

namespace gpuplan::cli {

// One byte past the limit is enough to know the request is too large, so
// /dev/zero or a 300 MB pipe costs no more than the largest request allowed.
Input read_request_fd(int fd, bool named) {
  Input in;
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    in.failure = std::strerror(errno);
    return in;
  }
  if (S_ISDIR(st.st_mode)) {
    in.failure = "it is a directory, not a request file";
    return in;
  }
  if (named && !S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode)) {
    // A device or a socket is no request file (a pipe is: `<(...)`).
    in.failure = "it is a device or a socket, not a request file";
    return in;
  }
  if (S_ISREG(st.st_mode) && st.st_size > 0) in.size_bytes = std::size_t(st.st_size);
  const std::size_t most = kMaxRequestBytes + 1;
  in.text.resize(most);
  std::size_t got = 0;
  while (got < most) {
    const ssize_t n = ::read(fd, in.text.data() + got, most - got);
    if (n == 0) break;
    if (n < 0) {
      if (errno == EINTR) continue;
      in.failure = std::strerror(errno);
      break;
    }
    got += std::size_t(n);
  }
  in.text.resize(got);
  // A file that grew or shrank while read: its size is what was read, when all of it was.
  if (got < most) in.size_bytes = got;
  return in;
}

Input read_request(const char* name) {
  if (std::string_view(name) == "-") return read_request_fd(STDIN_FILENO, false);
  // A device is refused before it is opened (opening one may act: a tape
  // rewinds); a FIFO's open waits for its writer, as cat's does.
  struct stat st {};
  if (::stat(name, &st) == 0 && (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) || S_ISSOCK(st.st_mode))) {
    Input in;
    in.failure = "it is a device or a socket, not a request file";
    return in;
  }
  const int fd = ::open(name, O_RDONLY | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) {
    Input in;
    in.failure = std::strerror(errno);
    return in;
  }
  Input in = read_request_fd(fd, true);
  ::close(fd);
  return in;
}

}  // namespace gpuplan::cli
