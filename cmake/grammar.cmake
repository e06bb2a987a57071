# grammar.cmake - the generated lexer and parser, in GEN (lexer.c,
# parser.c, parser.h), made by re2c and bison from grammar/lexer.re and
# grammar/parser.y.
#
# The sdist (tools/make-sdist.sh) also ships them, generated, in
# grammar/gen/ with grammar/gen/SOURCES, the SHA-256 of the two inputs they
# were made from; git never holds them.  Where re2c and bison are missing,
# the shipped copies are used.  Where grammar/gen/ exists, its SOURCES must
# match the inputs: a grammar edited since is a configure error (a stale
# sdist would parse another language than its grammar says), and editing
# either input re-runs this check.
set(PTX_SHIPPED ${CMAKE_CURRENT_SOURCE_DIR}/grammar/gen)
file(SHA256 ${CMAKE_CURRENT_SOURCE_DIR}/grammar/lexer.re PTX_LEXER_SHA)
file(SHA256 ${CMAKE_CURRENT_SOURCE_DIR}/grammar/parser.y PTX_PARSER_SHA)
set(PTX_GRAMMAR_STAMP "lexer.re ${PTX_LEXER_SHA}\nparser.y ${PTX_PARSER_SHA}\n")
if(EXISTS ${PTX_SHIPPED}/SOURCES)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
    ${CMAKE_CURRENT_SOURCE_DIR}/grammar/lexer.re ${CMAKE_CURRENT_SOURCE_DIR}/grammar/parser.y)
  file(READ ${PTX_SHIPPED}/SOURCES PTX_SHIPPED_STAMP)
  if(NOT PTX_SHIPPED_STAMP STREQUAL PTX_GRAMMAR_STAMP)
    message(FATAL_ERROR "grammar/gen/ is stale: grammar/lexer.re or grammar/parser.y "
      "changed after it was generated.  Regenerate it (tools/make-sdist.sh) or delete it.")
  endif()
endif()

find_program(RE2C re2c)
find_package(BISON 3.0)
if(RE2C AND BISON_FOUND)
  set(GEN ${CMAKE_CURRENT_BINARY_DIR}/gen)
  file(MAKE_DIRECTORY ${GEN})
  add_custom_command(
    OUTPUT ${GEN}/lexer.c
    COMMAND ${RE2C} -W --no-generation-date -o ${GEN}/lexer.c ${CMAKE_CURRENT_SOURCE_DIR}/grammar/lexer.re
    DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/grammar/lexer.re
    COMMENT "re2c lexer.re")
  BISON_TARGET(ptx_parser grammar/parser.y ${GEN}/parser.c
    DEFINES_FILE ${GEN}/parser.h COMPILE_FLAGS "-Wall -Wno-yacc")
  set(PTX_PARSER_SOURCES ${BISON_ptx_parser_OUTPUTS})
elseif(EXISTS ${PTX_SHIPPED}/SOURCES)
  message(STATUS "re2c or bison not found: using the generated sources in grammar/gen")
  set(GEN ${PTX_SHIPPED})
  set(PTX_PARSER_SOURCES ${GEN}/parser.c)
else()
  message(FATAL_ERROR "re2c and bison (>= 3.0) are needed to generate the lexer and parser "
    "(Debian: apt-get install re2c bison)")
endif()
