clz_tab.o: lib/clz_tab.c include/linux/compiler-version.h \
  include/linux/kconfig.h include/generated/autoconf.h \
  include/linux/compiler_types.h include/linux/compiler_attributes.h \
  include/linux/compiler-clang.h
