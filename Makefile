# Builds and installs libcarfit like any C library.
#
#   make                                  the release library, .build/release/libcarfit.so, and
#                                         the libcarfit.so.1 link its SONAME asks for, next to it
#   make install PREFIX=/usr/local DESTDIR=
#                                         $(LIBDIR)/libcarfit.so.MAJOR.MINOR.PATCH (stripped), the
#                                         links libcarfit.so.MAJOR and libcarfit.so, the header,
#                                         $(LIBDIR)/pkgconfig/carfit.pc, the CMake package
#                                         $(LIBDIR)/cmake/carfit (target carfit::carfit) and the
#                                         schema $(DATADIR)/carfit/carfit.schema.json with the
#                                         planner's wire API beside it,
#                                         $(DATADIR)/carfit/carfit.planner.openapi.json
#   make uninstall PREFIX=... DESTDIR=... removes what install put there (same variables)
#
# LIBDIR defaults to $(PREFIX)/lib; a relative LIBDIR (lib/x86_64-linux-gnu) is taken under
# PREFIX. INCLUDEDIR defaults to $(PREFIX)/include, DATADIR to $(PREFIX)/share. The version comes from the macros of
# include/carfit.h, the one place it is written.

HERE := $(patsubst %/,%,$(dir $(realpath $(lastword $(MAKEFILE_LIST)))))
HEADER := $(HERE)/include/carfit.h

version_part = $(shell sed -n 's/^\#define CARFIT_VERSION_$(1) \([0-9][0-9]*\)$$/\1/p' $(HEADER))
VERSION_MAJOR := $(call version_part,MAJOR)
VERSION_MINOR := $(call version_part,MINOR)
VERSION_PATCH := $(call version_part,PATCH)
VERSION := $(VERSION_MAJOR).$(VERSION_MINOR).$(VERSION_PATCH)
ifneq ($(words $(VERSION_MAJOR) $(VERSION_MINOR) $(VERSION_PATCH)),3)
$(error cannot read CARFIT_VERSION_MAJOR/MINOR/PATCH from $(HEADER))
endif

PREFIX ?= /usr/local
DESTDIR ?=
LIBDIR ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
DATADIR ?= $(PREFIX)/share
override LIBDIR := $(if $(filter /%,$(LIBDIR)),$(LIBDIR),$(PREFIX)/$(LIBDIR))
override INCLUDEDIR := $(if $(filter /%,$(INCLUDEDIR)),$(INCLUDEDIR),$(PREFIX)/$(INCLUDEDIR))
override DATADIR := $(if $(filter /%,$(DATADIR)),$(DATADIR),$(PREFIX)/$(DATADIR))
SCHEMA := $(HERE)/include/carfit.schema.json
OPENAPI := $(HERE)/include/carfit.planner.openapi.json
SCHEMADIR := $(DATADIR)/carfit
CMAKEDIR := $(LIBDIR)/cmake/carfit
PKGCONFIGDIR := $(LIBDIR)/pkgconfig

SWIFT ?= swift
STRIP ?= strip
INSTALL ?= install

BUILD := $(HERE)/.build/release
LIBRARY := $(BUILD)/libcarfit.so
SONAME := libcarfit.so.$(VERSION_MAJOR)
REALNAME := libcarfit.so.$(VERSION)
# What install copies, made here so an install as another user writes nothing into .build.
STAGE := $(HERE)/.build/install
SOURCES := $(HERE)/Package.swift $(HEADER) $(shell find $(HERE)/Sources -type f 2>/dev/null)

# Paths the pkg-config and CMake files use: under ${prefix}, and relative to the CMake package,
# so an installed tree moved as a whole still works with CMake.
relative = $(shell realpath -m --relative-to='$(2)' '$(1)')
PC_LIBDIR := $(if $(filter $(PREFIX)/%,$(LIBDIR)),$${prefix}/$(call relative,$(LIBDIR),$(PREFIX)),$(LIBDIR))
PC_INCLUDEDIR := $(if $(filter $(PREFIX)/%,$(INCLUDEDIR)),$${prefix}/$(call relative,$(INCLUDEDIR),$(PREFIX)),$(INCLUDEDIR))
PC_SCHEMAFILE := $(if $(filter $(PREFIX)/%,$(SCHEMADIR)),$${prefix}/$(call relative,$(SCHEMADIR),$(PREFIX)),$(SCHEMADIR))/carfit.schema.json

.PHONY: all library install uninstall

all: library

library: $(BUILD)/$(SONAME)

$(LIBRARY): $(SOURCES)
	cd $(HERE) && $(SWIFT) build -c release --product carfit
	@touch $@

# SwiftPM makes only libcarfit.so; programs linked with -lcarfit ask for the SONAME.
$(BUILD)/$(SONAME): $(LIBRARY)
	ln -sfn libcarfit.so $@

$(STAGE)/$(REALNAME): $(LIBRARY)
	@mkdir -p $(STAGE)
	$(STRIP) --strip-unneeded -o $@ $(LIBRARY)

$(STAGE)/carfit.pc: $(HERE)/packaging/carfit.pc.in $(HEADER) FORCE
	@mkdir -p $(STAGE)
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@LIBDIR@|$(PC_LIBDIR)|g' -e 's|@INCLUDEDIR@|$(PC_INCLUDEDIR)|g' \
	    -e 's|@SCHEMAFILE@|$(PC_SCHEMAFILE)|g' -e 's|@VERSION@|$(VERSION)|g' $< > $@

$(STAGE)/carfitConfig.cmake: $(HERE)/packaging/carfitConfig.cmake.in $(HEADER) FORCE
	@mkdir -p $(STAGE)
	sed -e 's|@PREFIX_FROM_CONFIG@|$(call relative,$(PREFIX),$(CMAKEDIR))|g' \
	    -e 's|@LIBDIR_FROM_PREFIX@|$(call relative,$(LIBDIR),$(PREFIX))|g' \
	    -e 's|@INCLUDEDIR_FROM_PREFIX@|$(call relative,$(INCLUDEDIR),$(PREFIX))|g' \
	    -e 's|@VERSION_MAJOR@|$(VERSION_MAJOR)|g' -e 's|@VERSION@|$(VERSION)|g' $< > $@

$(STAGE)/carfitConfigVersion.cmake: $(HERE)/packaging/carfitConfigVersion.cmake.in $(HEADER)
	@mkdir -p $(STAGE)
	sed -e 's|@VERSION_MAJOR@|$(VERSION_MAJOR)|g' -e 's|@VERSION@|$(VERSION)|g' $< > $@

.PHONY: FORCE
FORCE:

install: library $(STAGE)/$(REALNAME) $(STAGE)/carfit.pc $(STAGE)/carfitConfig.cmake $(STAGE)/carfitConfigVersion.cmake
	$(INSTALL) -d '$(DESTDIR)$(LIBDIR)' '$(DESTDIR)$(INCLUDEDIR)' '$(DESTDIR)$(PKGCONFIGDIR)' '$(DESTDIR)$(CMAKEDIR)' \
	    '$(DESTDIR)$(SCHEMADIR)'
	$(INSTALL) -m 755 $(STAGE)/$(REALNAME) '$(DESTDIR)$(LIBDIR)/$(REALNAME)'
	ln -sfn $(REALNAME) '$(DESTDIR)$(LIBDIR)/$(SONAME)'
	ln -sfn $(SONAME) '$(DESTDIR)$(LIBDIR)/libcarfit.so'
	$(INSTALL) -m 644 $(HEADER) '$(DESTDIR)$(INCLUDEDIR)/carfit.h'
	$(INSTALL) -m 644 $(SCHEMA) '$(DESTDIR)$(SCHEMADIR)/carfit.schema.json'
	$(INSTALL) -m 644 $(OPENAPI) '$(DESTDIR)$(SCHEMADIR)/carfit.planner.openapi.json'
	$(INSTALL) -m 644 $(STAGE)/carfit.pc '$(DESTDIR)$(PKGCONFIGDIR)/carfit.pc'
	$(INSTALL) -m 644 $(STAGE)/carfitConfig.cmake $(STAGE)/carfitConfigVersion.cmake '$(DESTDIR)$(CMAKEDIR)/'

uninstall:
	rm -f '$(DESTDIR)$(LIBDIR)/$(REALNAME)' '$(DESTDIR)$(LIBDIR)/$(SONAME)' '$(DESTDIR)$(LIBDIR)/libcarfit.so'
	rm -f '$(DESTDIR)$(INCLUDEDIR)/carfit.h' '$(DESTDIR)$(PKGCONFIGDIR)/carfit.pc'
	rm -f '$(DESTDIR)$(CMAKEDIR)/carfitConfig.cmake' '$(DESTDIR)$(CMAKEDIR)/carfitConfigVersion.cmake'
	rm -f '$(DESTDIR)$(SCHEMADIR)/carfit.schema.json' '$(DESTDIR)$(SCHEMADIR)/carfit.planner.openapi.json'
	rmdir '$(DESTDIR)$(CMAKEDIR)' 2>/dev/null || true
	rmdir '$(DESTDIR)$(SCHEMADIR)' 2>/dev/null || true
