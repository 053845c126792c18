# Third-party code comes from Debian packages, never from the repository or the
# network: nlohmann-json3-dev for JSON, googletest sources for the test suite.

# nlohmann/json is header-only. Under Emscripten the toolchain searches only its
# own sysroot, and adding /usr/include would pull in glibc's headers, so we
# expose exactly the nlohmann folder through a link inside the build tree.
set(GPUPLAN_NLOHMANN_DIR "/usr/include/nlohmann" CACHE PATH "Folder holding nlohmann/json.hpp")
if(NOT EXISTS "${GPUPLAN_NLOHMANN_DIR}/json.hpp")
  message(FATAL_ERROR "nlohmann/json not found in ${GPUPLAN_NLOHMANN_DIR}: run ./dev.sh setup (apt-get install nlohmann-json3-dev)")
endif()
set(_gpuplan_json_include "${CMAKE_BINARY_DIR}/third_party/include")
file(MAKE_DIRECTORY "${_gpuplan_json_include}")
if(NOT EXISTS "${_gpuplan_json_include}/nlohmann")
  file(CREATE_LINK "${GPUPLAN_NLOHMANN_DIR}" "${_gpuplan_json_include}/nlohmann" SYMBOLIC)
endif()
add_library(gpuplan_json INTERFACE)
target_include_directories(gpuplan_json SYSTEM INTERFACE "${_gpuplan_json_include}")
# Keep JSON object keys in insertion order? No: plain nlohmann::json sorts keys,
# which makes native and wasm output byte-identical and diffable.

# Numeric code must give the same bits natively and in wasm: no fused
# multiply-add contraction (a price must not differ between CLI and page).
add_library(gpuplan_flags INTERFACE)
target_compile_options(gpuplan_flags INTERFACE
  -ffp-contract=off
  $<$<CXX_COMPILER_ID:GNU,Clang>:-Wall -Wextra -Wpedantic>)
if(EMSCRIPTEN)
  # C++ exceptions are off by default in Emscripten; the wasm test suite keeps
  # them for GoogleTest (which reports a test that throws). Native
  # WebAssembly exceptions (supported by every current browser and Node >= 17)
  # cost far less code than the JavaScript-based emulation, which wraps every
  # call that may throw in an invoke_* trampoline (measured in
  # docs/performance-log.md). Every object of a link must agree on the
  # exception model, GoogleTest's included, so this one flag is set for the
  # whole build rather than per target; the page's and the Node module's
  # targets, which throw and catch nothing, take it back off
  # (gpuplan_without_wasm_exceptions).
  add_compile_options(-fwasm-exceptions)
  add_link_options(-fwasm-exceptions)
endif()

# A target of the page's or the Node module built and linked without
# WebAssembly exceptions: the core is compiled without exceptions
# (core/CMakeLists.txt), so the module carries no EH runtime and links
# libc++'s variant without them (docs/performance.md).
function(gpuplan_without_wasm_exceptions target)
  foreach(_property COMPILE_OPTIONS LINK_OPTIONS)
    get_target_property(_options ${target} ${_property})
    if(_options)
      list(REMOVE_ITEM _options -fwasm-exceptions)
      set_property(TARGET ${target} PROPERTY ${_property} "${_options}")
    endif()
  endforeach()
endfunction()

if(GPUPLAN_BUILD_TESTS)
  set(GPUPLAN_GTEST_SOURCE_DIR "/usr/src/googletest" CACHE PATH "GoogleTest sources (Debian package googletest)")
  if(NOT EXISTS "${GPUPLAN_GTEST_SOURCE_DIR}/CMakeLists.txt")
    message(FATAL_ERROR "GoogleTest sources not found in ${GPUPLAN_GTEST_SOURCE_DIR}: run ./dev.sh setup (apt-get install googletest)")
  endif()
  set(INSTALL_GTEST OFF CACHE BOOL "" FORCE)
  set(BUILD_GMOCK OFF CACHE BOOL "" FORCE)
  set(gtest_disable_pthreads ${EMSCRIPTEN} CACHE BOOL "" FORCE)
  add_subdirectory("${GPUPLAN_GTEST_SOURCE_DIR}" "${CMAKE_BINARY_DIR}/googletest" EXCLUDE_FROM_ALL SYSTEM)
endif()
