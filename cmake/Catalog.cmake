# The catalog (catalog/*.json) is validated and compiled into the library at
# build time by tools/catalog_embed.cpp, which uses the core's own parser: a
# malformed catalog fails the build with the file and JSON path. Under
# Emscripten the tool itself is wasm and runs under node (the toolchain's
# CROSSCOMPILING_EMULATOR), with NODERAWFS to read the files.
set(GPUPLAN_CATALOG_FILES
  ${PROJECT_SOURCE_DIR}/catalog/meta.json
  ${PROJECT_SOURCE_DIR}/catalog/gpus.json
  ${PROJECT_SOURCE_DIR}/catalog/platforms.json
  ${PROJECT_SOURCE_DIR}/catalog/models.json
  ${PROJECT_SOURCE_DIR}/catalog/scenarios.json)

# gpuplan_add_embedded_catalog(target [page]): the full catalog, or with
# `page` the page module's copy without the provenance prose the page never
# shows (gpuplan::CatalogProfile::page, core/src/read/catalog_profile.cpp). Both are
# made from the same files and the full catalog is validated first either way.
function(gpuplan_add_embedded_catalog target)
  set(profile "${ARGV1}")
  if(profile STREQUAL "page")
    set(out "${CMAKE_BINARY_DIR}/generated/embedded_catalog_data_page.cpp")
    set(flags --profile=page)
  else()
    set(out "${CMAKE_BINARY_DIR}/generated/embedded_catalog_data.cpp")
    set(flags)
  endif()
  target_sources(${target} PRIVATE "${out}")
  # One rule per generated file, however many libraries compile it.
  get_property(defined GLOBAL PROPERTY GPUPLAN_CATALOG_RULE_DEFINED_${profile})
  if(defined)
    return()
  endif()
  set_property(GLOBAL PROPERTY GPUPLAN_CATALOG_RULE_DEFINED_${profile} TRUE)
  add_custom_command(
    OUTPUT "${out}"
    COMMAND gpuplan_catalog_embed ${flags} "${out}" ${GPUPLAN_CATALOG_FILES}
    DEPENDS gpuplan_catalog_embed ${GPUPLAN_CATALOG_FILES}
    WORKING_DIRECTORY "${PROJECT_SOURCE_DIR}"
    COMMENT "Validating and embedding the catalog ${profile}"
    VERBATIM)
endfunction()
