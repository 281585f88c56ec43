base64.o: lib/base64.c include/linux/compiler-version.h \
  include/linux/kconfig.h include/generated/autoconf.h \
  include/linux/compiler_types.h include/linux/compiler_attributes.h \
  include/linux/compiler-clang.h include/linux/kernel.h \
  include/linux/stdarg.h include/linux/align.h include/linux/const.h \
  include/vdso/const.h include/uapi/linux/const.h \
  include/linux/array_size.h include/linux/compiler.h \
  arch/x86/include/generated/asm/rwonce.h include/asm-generic/rwonce.h \
  include/linux/kasan-checks.h include/linux/types.h \
  include/uapi/linux/types.h arch/x86/include/generated/uapi/asm/types.h \
  include/uapi/asm-generic/types.h include/asm-generic/int-ll64.h \
  include/uapi/asm-generic/int-ll64.h \
  arch/x86/include/uapi/asm/bitsperlong.h \
  include/asm-generic/bitsperlong.h \
  include/uapi/asm-generic/bitsperlong.h \
  include/uapi/linux/posix_types.h include/linux/stddef.h \
  include/uapi/linux/stddef.h arch/x86/include/asm/posix_types.h \
  arch/x86/include/uapi/asm/posix_types_64.h \
  include/uapi/asm-generic/posix_types.h include/linux/kcsan-checks.h \
  include/linux/limits.h include/uapi/linux/limits.h \
  include/vdso/limits.h include/linux/linkage.h \
  include/linux/stringify.h include/linux/export.h \
  arch/x86/include/asm/linkage.h arch/x86/include/asm/ibt.h \
  include/linux/container_of.h include/linux/build_bug.h \
  include/linux/err.h arch/x86/include/generated/uapi/asm/errno.h \
  include/uapi/asm-generic/errno.h include/uapi/asm-generic/errno-base.h \
  include/linux/bitops.h include/linux/bits.h include/vdso/bits.h \
  include/linux/typecheck.h include/uapi/linux/kernel.h \
  include/uapi/linux/sysinfo.h \
  include/asm-generic/bitops/generic-non-atomic.h \
  arch/x86/include/asm/barrier.h arch/x86/include/asm/alternative.h \
  arch/x86/include/asm/asm.h arch/x86/include/asm/extable_fixup_types.h \
  arch/x86/include/asm/bug.h include/linux/instrumentation.h \
  include/linux/objtool.h include/asm-generic/bug.h \
  include/linux/once_lite.h include/linux/panic.h include/linux/printk.h \
  include/linux/init.h include/linux/kern_levels.h \
  include/linux/ratelimit_types.h include/uapi/linux/param.h \
  arch/x86/include/generated/uapi/asm/param.h \
  include/asm-generic/param.h include/uapi/asm-generic/param.h \
  include/linux/spinlock_types_raw.h \
  arch/x86/include/asm/spinlock_types.h \
  include/asm-generic/qspinlock_types.h \
  include/asm-generic/qrwlock_types.h \
  arch/x86/include/uapi/asm/byteorder.h \
  include/linux/byteorder/little_endian.h \
  include/uapi/linux/byteorder/little_endian.h include/linux/swab.h \
  include/uapi/linux/swab.h arch/x86/include/uapi/asm/swab.h \
  include/linux/byteorder/generic.h include/linux/lockdep_types.h \
  arch/x86/include/asm/nops.h include/asm-generic/barrier.h \
  arch/x86/include/asm/bitops.h arch/x86/include/asm/rmwcc.h \
  include/asm-generic/bitops/sched.h arch/x86/include/asm/arch_hweight.h \
  arch/x86/include/asm/cpufeatures.h \
  arch/x86/include/asm/required-features.h \
  arch/x86/include/asm/disabled-features.h \
  include/asm-generic/bitops/const_hweight.h \
  include/asm-generic/bitops/instrumented-atomic.h \
  include/linux/instrumented.h include/linux/kmsan-checks.h \
  include/asm-generic/bitops/instrumented-non-atomic.h \
  include/asm-generic/bitops/instrumented-lock.h \
  include/asm-generic/bitops/le.h \
  include/asm-generic/bitops/ext2-atomic-setbit.h \
  include/linux/kstrtox.h include/linux/log2.h include/linux/math.h \
  arch/x86/include/asm/div64.h include/asm-generic/div64.h \
  include/linux/minmax.h include/linux/static_call_types.h \
  include/linux/instruction_pointer.h include/linux/string.h \
  include/linux/errno.h include/uapi/linux/errno.h \
  include/linux/overflow.h include/uapi/linux/string.h \
  arch/x86/include/asm/string.h arch/x86/include/asm/string_64.h \
  include/linux/jump_label.h arch/x86/include/asm/jump_label.h \
  include/linux/base64.h
