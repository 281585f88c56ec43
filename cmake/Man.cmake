# Manual pages, generated from docs/man/*.md with pandoc when it is installed
# (scripts/install-deps.sh installs Debian's) and installed by cmake --install
# into share/man/man1 and man7. Without pandoc the build goes on without them.
#
# The man-pages test checks that every option the commands' --help prints and
# every argument the plugin accepts is in its page (the generated page, or
# the Markdown source when there is no pandoc), so an option cannot be added
# without its documentation.
include(GNUInstallDirs)

set(BARRIERPAIR_MAN_PAGES barrierpair.1 barrierpair-litmus.1 barrierpair-plugin.7)
set(BARRIERPAIR_MAN_SOURCE_DIR "${CMAKE_SOURCE_DIR}/docs/man")
set(BARRIERPAIR_MAN_DIR "${CMAKE_BINARY_DIR}/man")

find_program(BARRIERPAIR_PANDOC pandoc DOC "pandoc, to generate the man pages")
if(BARRIERPAIR_PANDOC)
  set(generated_pages "")
  foreach(page IN LISTS BARRIERPAIR_MAN_PAGES)
    string(REGEX MATCH "[0-9]$" section "${page}")
    add_custom_command(
      OUTPUT "${BARRIERPAIR_MAN_DIR}/${page}"
      COMMAND "${CMAKE_COMMAND}" -E make_directory "${BARRIERPAIR_MAN_DIR}"
      # -smart: "--json" must stay two hyphens, not become an en dash.
      COMMAND "${BARRIERPAIR_PANDOC}" --standalone --from markdown-smart --to man
              --metadata "footer=barrierpair ${PROJECT_VERSION}"
              --output "${BARRIERPAIR_MAN_DIR}/${page}" "${BARRIERPAIR_MAN_SOURCE_DIR}/${page}.md"
      DEPENDS "${BARRIERPAIR_MAN_SOURCE_DIR}/${page}.md"
      COMMENT "Generating the man page ${page}"
      VERBATIM)
    list(APPEND generated_pages "${BARRIERPAIR_MAN_DIR}/${page}")
    install(FILES "${BARRIERPAIR_MAN_DIR}/${page}" DESTINATION "${CMAKE_INSTALL_MANDIR}/man${section}")
  endforeach()
  add_custom_target(man-pages ALL DEPENDS ${generated_pages})
  set(pages_to_check "${BARRIERPAIR_MAN_DIR}")
else()
  message(STATUS "barrierpair: pandoc not found, so no man pages (scripts/install-deps.sh installs it)")
  set(pages_to_check "${BARRIERPAIR_MAN_SOURCE_DIR}")
endif()

add_test(NAME man-pages
         COMMAND python3 "${CMAKE_SOURCE_DIR}/tests/man/check-man-pages.py"
                 --pages "${pages_to_check}"
                 --barrierpair "$<TARGET_FILE:barrierpair-cli>"
                 --litmus "$<TARGET_FILE:barrierpair-litmus>"
                 --clang "${BARRIERPAIR_CLANG}" --plugin "$<TARGET_FILE:barrierpair>")
