# Where `make install` (cmake --install) puts wharf, and the Debian package `make deb`
# builds from the same rules (CPack). The binary finds its page at
# <prefix>/share/wharf/web, beside <prefix>/bin (server/static_assets.hpp), so any
# prefix works: /usr/local by default, /usr in the package, ~/.local for one user.
include(GNUInstallDirs)

install(TARGETS wharf RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# The page as the build assembles it: our modules plus the vendored xterm.js.
install(DIRECTORY ${CMAKE_BINARY_DIR}/web/ DESTINATION ${CMAKE_INSTALL_DATADIR}/wharf/web)
install(FILES README.md LICENSE CHANGELOG.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
# Debian keeps a package's licence at /usr/share/doc/<package>/copyright.
install(FILES LICENSE DESTINATION ${CMAKE_INSTALL_DOCDIR} RENAME copyright)
install(DIRECTORY docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR}/docs FILES_MATCHING PATTERN "*.md")
# The systemd user unit (packaging/wharf.service). Its ExecStart names `wharf` without a
# folder, which systemd looks up in /usr/local/bin and /usr/bin, so the one file serves
# both the package and `make install`; `wharf service install` writes a copy that names
# the binary it was run as.
install(FILES packaging/wharf.service DESTINATION lib/systemd/user)

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME wharf)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR "wharf contributors")
set(CPACK_PACKAGE_CONTACT "wharf contributors")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "terminal sessions on this machine, served to any browser and to programs")
string(CONCAT CPACK_PACKAGE_DESCRIPTION
       "wharf runs terminal sessions (login shells and AI coding agents) in PTYs on this "
       "machine and serves them to browsers, its CLI, an HTTP API and MCP. Sessions belong "
       "to the machine: they outlive the browser tab and the daemon.")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION utils)
# Depends is computed from the libraries the binary really links (dpkg-shlibdeps).
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# Sandboxed sessions (docs/sandbox.md) start under bubblewrap; without it they are refused
# with a sentence saying so, and everything else works.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS bubblewrap)
# `cpack -B DIR` puts it elsewhere (the packaging test does).
set(CPACK_PACKAGE_DIRECTORY ${CMAKE_BINARY_DIR}/packages)
include(CPack)
