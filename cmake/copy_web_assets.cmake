# Copies the page (web/*.html|js|css|svg|webmanifest) and the vendored xterm.js modules
# into OUTPUT_DIR. Run with cmake -P from the wharf_web_assets target.
set(vendor_files
  "@xterm/xterm/lib/xterm.mjs|xterm"
  "@xterm/xterm/css/xterm.css|xterm"
  "@xterm/addon-fit/lib/addon-fit.mjs|addon-fit"
  "@xterm/addon-webgl/lib/addon-webgl.mjs|addon-webgl"
  "@xterm/addon-unicode11/lib/addon-unicode11.mjs|addon-unicode11"
  "@xterm/addon-web-links/lib/addon-web-links.mjs|addon-web-links"
  "@xterm/addon-search/lib/addon-search.mjs|addon-search"
)

file(REMOVE_RECURSE "${OUTPUT_DIR}")
file(GLOB page_files LIST_DIRECTORIES false
  "${SOURCE_DIR}/web/*.html" "${SOURCE_DIR}/web/*.js" "${SOURCE_DIR}/web/*.css"
  "${SOURCE_DIR}/web/*.svg" "${SOURCE_DIR}/web/*.webmanifest" "${SOURCE_DIR}/web/*.png")
file(COPY ${page_files} DESTINATION "${OUTPUT_DIR}")

foreach(entry IN LISTS vendor_files)
  string(REPLACE "|" ";" parts "${entry}")
  list(GET parts 0 relative)
  list(GET parts 1 folder)
  set(source "${SOURCE_DIR}/node_modules/${relative}")
  if(NOT EXISTS "${source}")
    message(FATAL_ERROR "${source} is missing: run `npm ci` (or `make deps`) first")
  endif()
  file(COPY "${source}" DESTINATION "${OUTPUT_DIR}/vendor/${folder}")
endforeach()
