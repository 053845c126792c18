// gpuplan command line: the same plan() the page and the wasm module call.
//   gpuplan plan FILE|-    print the response JSON (exit 0), or the error JSON (exit 2)
//   gpuplan catalog        print the catalog this binary carries
#include <cstdio>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>
#include <string>

#include "gpuplan/api.h"
#include "gpuplan/catalog.h"

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

bool read_all(const std::string& name, std::string& out) {
  if (name == "-") {
    out.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
    return !std::cin.bad();
  }
  std::ifstream in(name, std::ios::binary);
  if (!in) return false;
  out.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  std::string command = argc > 1 ? argv[1] : "";
  if (command == "--help" || command == "-h" || command == "help") {
    std::cout << kUsage;
    return 0;
  }
  if (command == "catalog" && argc == 2) {
    std::cout << gpuplan::embedded_catalog_json() << "\n";
    return 0;
  }
  if (command == "plan" && argc == 3) {
    std::string text;
    if (!read_all(argv[2], text)) {
      std::cerr << "gpuplan: cannot read " << argv[2] << "\n";
      return 1;
    }
    gpuplan::JsonReply reply = gpuplan::plan_json(text);
    std::cout << reply.json << "\n";
    return reply.exit_code;
  }
  std::cerr << kUsage;
  return 1;
}
