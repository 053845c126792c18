# The core's layers, checked at configure time: a file in core/src/<folder>/
# may include only the private headers of the folders listed for it, so an
# include line says which layer it reaches and a backward one fails the build.
#
#   text/      every layer's words: messages, names, the JSON writer
#   read/      the request and the catalog from JSON
#   estimate/  memory, time and the architectures they expand
#   plan/      pricing, the planner, the OOM doctor
#   write/     the response as JSON
#   api.cpp    (core/src itself) the one place that calls read -> plan -> write
#
# One edge runs against the order, named header by header: the reader expands
# a network's published architecture to fill in its parameter count and FLOPs,
# and converts a measured tokens/s into samples/s with the time model's own
# token count, while it reads (read/request.cpp, read/catalog.cpp).
#
# Used two ways: include(CheckLayers) + gpuplan_check_layers(<core/src>) from
# core/CMakeLists.txt, and `cmake -DGPUPLAN_LAYERS_ROOT=<dir> -P CheckLayers.cmake`
# from the test that proves a backward include is refused.

if(CMAKE_SCRIPT_MODE_FILE)
  cmake_minimum_required(VERSION 3.20)  # IN_LIST, when run with -P
endif()

set(_gpuplan_layer_allowed_text text)
set(_gpuplan_layer_allowed_read text read)
set(_gpuplan_layer_allowed_estimate text estimate)
set(_gpuplan_layer_allowed_plan text estimate plan)
set(_gpuplan_layer_allowed_write text write)
set(_gpuplan_layer_exceptions_read estimate/cnn_architecture.h estimate/token_counts.h)

function(gpuplan_check_layers src_dir)
  set(_problems)
  foreach(_folder IN ITEMS text read estimate plan write)
    file(GLOB _files "${src_dir}/${_folder}/*.cpp" "${src_dir}/${_folder}/*.h")
    foreach(_file IN LISTS _files)
      file(STRINGS "${_file}" _lines REGEX "^[ \t]*#[ \t]*include[ \t]+\"")
      foreach(_line IN LISTS _lines)
        string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]+\"([^\"]+)\".*" "\\1" _header "${_line}")
        if(_header MATCHES "^gpuplan/")
          continue()  # the public headers: every layer may use them
        endif()
        if(NOT _header MATCHES "^([a-z_]+)/[^/]+$")
          list(APPEND _problems "${_file}: \"${_header}\" names no folder (write it as \"<folder>/<header>\")")
          continue()
        endif()
        set(_to "${CMAKE_MATCH_1}")
        if(_to IN_LIST _gpuplan_layer_allowed_${_folder} OR _header IN_LIST _gpuplan_layer_exceptions_${_folder})
          continue()
        endif()
        list(APPEND _problems "${_file}: ${_folder}/ may not include \"${_header}\" (${_folder}/ uses ${_gpuplan_layer_allowed_${_folder}})")
      endforeach()
    endforeach()
  endforeach()
  if(_problems)
    list(JOIN _problems "\n  " _text)
    message(FATAL_ERROR "core/src layer rule broken (cmake/CheckLayers.cmake):\n  ${_text}")
  endif()
endfunction()

if(CMAKE_SCRIPT_MODE_FILE AND GPUPLAN_LAYERS_ROOT)
  gpuplan_check_layers("${GPUPLAN_LAYERS_ROOT}")
endif()
