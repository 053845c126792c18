// gpuplan command line: the same plan() the page and the wasm module call.
//   gpuplan plan FILE|-    print the response JSON (exit 0), or the error JSON (exit 2)
//   gpuplan catalog        print the catalog this binary carries
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>

#include "gpuplan/api.h"
#include "gpuplan/catalog.h"
#include "gpuplan/request.h"
#include "read_request.h"

namespace {

constexpr const char* kUsage =
    "gpuplan - GPU rental planner (GPU 租用规划)\n"
    "\n"
    "usage:\n"
    "  gpuplan plan FILE     plan the request in FILE (JSON); '-' reads standard input\n"
    "  gpuplan catalog       print the embedded catalog (GPUs, platforms, model presets)\n"
    "  gpuplan --help        this text\n"
    "\n"
    "exit status: 0 success, 2 invalid input (the error is printed as JSON), 1 usage or I/O error\n"
    "request and response fields: docs/api.md\n";

// The text and a newline on standard output; false (the reason on standard
// error) when it could not be written, as on a full disk or a closed pipe.
bool write_out(std::string_view text) {
  const bool ok = std::fwrite(text.data(), 1, text.size(), stdout) == text.size() && std::fputc('\n', stdout) != EOF &&
                  std::fflush(stdout) == 0;
  if (!ok) std::fprintf(stderr, "gpuplan: cannot write the output: %s\n", std::strerror(errno));
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  std::string command = argc > 1 ? argv[1] : "";
  if (command == "--help" || command == "-h" || command == "help") {
    std::string_view usage = kUsage;
    usage.remove_suffix(1);  // write_out adds the last newline
    return write_out(usage) ? 0 : 1;
  }
  if (command == "catalog" && argc == 2) return write_out(gpuplan::embedded_catalog_json()) ? 0 : 1;
  if (command == "plan" && argc == 3) {
    const gpuplan::cli::Input in = gpuplan::cli::read_request(argv[2]);
    if (!in.failure.empty()) {
      std::fprintf(stderr, "gpuplan: cannot read %s: %s\n", argv[2], in.failure.c_str());
      return 1;
    }
    const gpuplan::JsonReply reply = in.text.size() > gpuplan::kMaxRequestBytes
                                         ? gpuplan::too_large_json(in.text, in.size_bytes)
                                         : gpuplan::plan_json(in.text);
    return write_out(reply.json) ? reply.exit_code : 1;
  }
  std::fputs(kUsage, stderr);
  return 1;
}
