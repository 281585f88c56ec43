bug.o: lib/bug.c include/linux/compiler-version.h include/linux/kconfig.h \
  include/generated/autoconf.h include/linux/compiler_types.h \
  include/linux/compiler_attributes.h include/linux/compiler-clang.h \
  include/linux/list.h include/linux/container_of.h \
  include/linux/build_bug.h include/linux/compiler.h \
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
  include/linux/err.h arch/x86/include/generated/uapi/asm/errno.h \
  include/uapi/asm-generic/errno.h include/uapi/asm-generic/errno-base.h \
  include/linux/poison.h include/linux/const.h include/vdso/const.h \
  include/uapi/linux/const.h arch/x86/include/asm/barrier.h \
  arch/x86/include/asm/alternative.h include/linux/stringify.h \
  arch/x86/include/asm/asm.h arch/x86/include/asm/extable_fixup_types.h \
  arch/x86/include/asm/bug.h include/linux/instrumentation.h \
  include/linux/objtool.h include/asm-generic/bug.h \
  include/linux/once_lite.h include/linux/panic.h include/linux/printk.h \
  include/linux/stdarg.h include/linux/init.h \
  include/linux/kern_levels.h include/linux/linkage.h \
  include/linux/export.h arch/x86/include/asm/linkage.h \
  arch/x86/include/asm/ibt.h include/linux/ratelimit_types.h \
  include/linux/bits.h include/vdso/bits.h include/uapi/linux/param.h \
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
  include/linux/module.h include/linux/stat.h \
  arch/x86/include/uapi/asm/stat.h include/uapi/linux/stat.h \
  include/linux/time.h include/linux/cache.h include/uapi/linux/kernel.h \
  include/uapi/linux/sysinfo.h arch/x86/include/asm/cache.h \
  include/linux/math64.h include/linux/math.h \
  arch/x86/include/asm/div64.h include/asm-generic/div64.h \
  include/vdso/math64.h include/linux/time64.h include/vdso/time64.h \
  include/uapi/linux/time.h include/uapi/linux/time_types.h \
  include/linux/time32.h include/linux/timex.h \
  include/uapi/linux/timex.h arch/x86/include/asm/timex.h \
  arch/x86/include/asm/processor.h \
  arch/x86/include/asm/processor-flags.h \
  arch/x86/include/uapi/asm/processor-flags.h \
  include/linux/mem_encrypt.h arch/x86/include/asm/mem_encrypt.h \
  include/linux/cc_platform.h arch/x86/include/asm/math_emu.h \
  arch/x86/include/asm/ptrace.h arch/x86/include/asm/segment.h \
  arch/x86/include/asm/page_types.h arch/x86/include/asm/page_64_types.h \
  arch/x86/include/asm/kaslr.h arch/x86/include/uapi/asm/ptrace.h \
  arch/x86/include/uapi/asm/ptrace-abi.h \
  arch/x86/include/asm/paravirt_types.h arch/x86/include/asm/desc_defs.h \
  arch/x86/include/asm/pgtable_types.h \
  arch/x86/include/asm/pgtable_64_types.h \
  arch/x86/include/asm/sparsemem.h arch/x86/include/asm/nospec-branch.h \
  include/linux/static_key.h include/linux/jump_label.h \
  arch/x86/include/asm/jump_label.h arch/x86/include/asm/cpufeatures.h \
  arch/x86/include/asm/required-features.h \
  arch/x86/include/asm/disabled-features.h \
  arch/x86/include/asm/msr-index.h arch/x86/include/asm/unwind_hints.h \
  arch/x86/include/asm/orc_types.h arch/x86/include/asm/percpu.h \
  include/linux/kernel.h include/linux/align.h \
  include/linux/array_size.h include/linux/limits.h \
  include/uapi/linux/limits.h include/vdso/limits.h \
  include/linux/bitops.h include/linux/typecheck.h \
  include/asm-generic/bitops/generic-non-atomic.h \
  arch/x86/include/asm/bitops.h arch/x86/include/asm/rmwcc.h \
  include/asm-generic/bitops/sched.h arch/x86/include/asm/arch_hweight.h \
  include/asm-generic/bitops/const_hweight.h \
  include/asm-generic/bitops/instrumented-atomic.h \
  include/linux/instrumented.h include/linux/kmsan-checks.h \
  include/asm-generic/bitops/instrumented-non-atomic.h \
  include/asm-generic/bitops/instrumented-lock.h \
  include/asm-generic/bitops/le.h \
  include/asm-generic/bitops/ext2-atomic-setbit.h \
  include/linux/kstrtox.h include/linux/log2.h include/linux/minmax.h \
  include/linux/static_call_types.h include/linux/instruction_pointer.h \
  include/asm-generic/percpu.h include/linux/threads.h \
  include/linux/percpu-defs.h arch/x86/include/asm/GEN-for-each-reg.h \
  arch/x86/include/asm/proto.h arch/x86/include/uapi/asm/ldt.h \
  arch/x86/include/uapi/asm/sigcontext.h arch/x86/include/asm/current.h \
  arch/x86/include/asm/page.h arch/x86/include/asm/page_64.h \
  include/linux/range.h include/asm-generic/memory_model.h \
  include/linux/pfn.h include/asm-generic/getorder.h \
  arch/x86/include/asm/msr.h arch/x86/include/asm/cpumask.h \
  include/linux/cpumask.h include/linux/bitmap.h include/linux/find.h \
  include/linux/string.h include/linux/errno.h \
  include/uapi/linux/errno.h include/linux/overflow.h \
  include/uapi/linux/string.h arch/x86/include/asm/string.h \
  arch/x86/include/asm/string_64.h include/linux/atomic.h \
  arch/x86/include/asm/atomic.h arch/x86/include/asm/cmpxchg.h \
  arch/x86/include/asm/cmpxchg_64.h arch/x86/include/asm/atomic64_64.h \
  include/linux/atomic/atomic-arch-fallback.h \
  include/linux/atomic/atomic-long.h \
  include/linux/atomic/atomic-instrumented.h include/linux/bug.h \
  include/linux/gfp_types.h include/linux/numa.h \
  arch/x86/include/uapi/asm/msr.h include/uapi/linux/ioctl.h \
  arch/x86/include/generated/uapi/asm/ioctl.h \
  include/asm-generic/ioctl.h include/uapi/asm-generic/ioctl.h \
  arch/x86/include/asm/shared/msr.h include/linux/tracepoint-defs.h \
  arch/x86/include/asm/special_insns.h include/linux/irqflags.h \
  include/linux/cleanup.h arch/x86/include/asm/irqflags.h \
  arch/x86/include/asm/fpu/types.h arch/x86/include/asm/vmxfeatures.h \
  arch/x86/include/asm/vdso/processor.h include/linux/personality.h \
  include/uapi/linux/personality.h arch/x86/include/asm/tsc.h \
  arch/x86/include/asm/cpufeature.h include/vdso/time32.h \
  include/vdso/time.h include/linux/uidgid.h include/linux/highuid.h \
  include/linux/buildid.h include/linux/mm_types.h \
  include/linux/mm_types_task.h arch/x86/include/asm/tlbbatch.h \
  include/linux/auxvec.h include/uapi/linux/auxvec.h \
  arch/x86/include/uapi/asm/auxvec.h include/linux/kref.h \
  include/linux/spinlock.h include/linux/preempt.h \
  arch/x86/include/asm/preempt.h include/linux/thread_info.h \
  include/linux/restart_block.h arch/x86/include/asm/thread_info.h \
  include/linux/bottom_half.h include/linux/lockdep.h \
  include/linux/smp.h include/linux/smp_types.h include/linux/llist.h \
  arch/x86/include/asm/smp.h arch/x86/include/generated/asm/mmiowb.h \
  include/asm-generic/mmiowb.h include/linux/spinlock_types.h \
  include/linux/rwlock_types.h arch/x86/include/asm/spinlock.h \
  arch/x86/include/asm/paravirt.h arch/x86/include/asm/frame.h \
  arch/x86/include/asm/qspinlock.h include/asm-generic/qspinlock.h \
  arch/x86/include/asm/qrwlock.h include/asm-generic/qrwlock.h \
  include/linux/rwlock.h include/linux/spinlock_api_smp.h \
  include/linux/rwlock_api_smp.h include/linux/refcount.h \
  include/linux/rbtree.h include/linux/rbtree_types.h \
  include/linux/rcupdate.h include/linux/context_tracking_irq.h \
  include/linux/rcutree.h include/linux/maple_tree.h \
  include/linux/rwsem.h include/linux/osq_lock.h \
  include/linux/completion.h include/linux/swait.h include/linux/wait.h \
  include/uapi/linux/wait.h include/linux/uprobes.h \
  arch/x86/include/asm/uprobes.h include/linux/notifier.h \
  include/linux/mutex.h include/linux/debug_locks.h include/linux/srcu.h \
  include/linux/workqueue.h include/linux/timer.h include/linux/ktime.h \
  include/linux/jiffies.h include/vdso/jiffies.h \
  include/generated/timeconst.h include/vdso/ktime.h \
  include/linux/timekeeping.h include/linux/clocksource_ids.h \
  include/linux/debugobjects.h include/linux/rcu_segcblist.h \
  include/linux/srcutree.h include/linux/rcu_node_tree.h \
  include/linux/page-flags-layout.h include/generated/bounds.h \
  include/linux/seqlock.h arch/x86/include/asm/mmu.h \
  include/linux/kmod.h include/linux/umh.h include/linux/gfp.h \
  include/linux/mmzone.h include/linux/nodemask.h include/linux/random.h \
  include/linux/once.h include/uapi/linux/random.h include/linux/irqnr.h \
  include/uapi/linux/irqnr.h include/linux/prandom.h \
  include/linux/percpu.h include/linux/mmdebug.h \
  arch/x86/include/asm/archrandom.h include/linux/pageblock-flags.h \
  include/linux/page-flags.h include/linux/local_lock.h \
  include/linux/local_lock_internal.h include/linux/memory_hotplug.h \
  arch/x86/include/asm/mmzone.h arch/x86/include/asm/mmzone_64.h \
  include/linux/topology.h include/linux/arch_topology.h \
  arch/x86/include/asm/topology.h arch/x86/include/asm/mpspec.h \
  arch/x86/include/asm/mpspec_def.h arch/x86/include/asm/x86_init.h \
  arch/x86/include/uapi/asm/bootparam.h include/linux/screen_info.h \
  include/uapi/linux/screen_info.h include/linux/apm_bios.h \
  include/uapi/linux/apm_bios.h include/linux/edd.h \
  include/uapi/linux/edd.h arch/x86/include/asm/ist.h \
  arch/x86/include/uapi/asm/ist.h include/video/edid.h \
  include/uapi/video/edid.h arch/x86/include/asm/apicdef.h \
  include/asm-generic/topology.h include/linux/sysctl.h \
  include/uapi/linux/sysctl.h include/linux/elf.h \
  arch/x86/include/asm/elf.h arch/x86/include/asm/user.h \
  arch/x86/include/asm/user_64.h arch/x86/include/asm/fsgsbase.h \
  arch/x86/include/asm/syscall.h include/uapi/linux/audit.h \
  include/uapi/linux/elf-em.h include/linux/sched.h \
  include/uapi/linux/sched.h include/linux/pid.h include/linux/rculist.h \
  include/linux/sem.h include/uapi/linux/sem.h include/linux/ipc.h \
  include/linux/rhashtable-types.h include/uapi/linux/ipc.h \
  arch/x86/include/generated/uapi/asm/ipcbuf.h \
  include/uapi/asm-generic/ipcbuf.h arch/x86/include/uapi/asm/sembuf.h \
  include/linux/shm.h include/uapi/linux/shm.h \
  include/uapi/asm-generic/hugetlb_encode.h \
  arch/x86/include/uapi/asm/shmbuf.h include/uapi/asm-generic/shmbuf.h \
  arch/x86/include/asm/shmparam.h include/linux/kmsan_types.h \
  include/linux/plist.h include/linux/hrtimer.h \
  include/linux/hrtimer_defs.h include/linux/timerqueue.h \
  include/linux/seccomp.h include/uapi/linux/seccomp.h \
  arch/x86/include/asm/seccomp.h arch/x86/include/asm/unistd.h \
  arch/x86/include/uapi/asm/unistd.h \
  arch/x86/include/generated/uapi/asm/unistd_64.h \
  arch/x86/include/generated/asm/unistd_64_x32.h \
  arch/x86/include/generated/asm/unistd_32_ia32.h \
  arch/x86/include/asm/ia32_unistd.h include/asm-generic/seccomp.h \
  include/uapi/linux/unistd.h include/linux/resource.h \
  include/uapi/linux/resource.h \
  arch/x86/include/generated/uapi/asm/resource.h \
  include/asm-generic/resource.h include/uapi/asm-generic/resource.h \
  include/linux/latencytop.h include/linux/sched/prio.h \
  include/linux/sched/types.h include/linux/signal_types.h \
  include/uapi/linux/signal.h arch/x86/include/asm/signal.h \
  arch/x86/include/uapi/asm/signal.h \
  include/uapi/asm-generic/signal-defs.h \
  arch/x86/include/uapi/asm/siginfo.h include/uapi/asm-generic/siginfo.h \
  include/linux/syscall_user_dispatch.h \
  include/linux/task_io_accounting.h include/linux/posix-timers.h \
  include/linux/alarmtimer.h include/uapi/linux/rseq.h \
  include/linux/kcsan.h include/linux/rv.h \
  arch/x86/include/generated/asm/kmap_size.h \
  include/asm-generic/kmap_size.h arch/x86/include/asm/vdso.h \
  include/uapi/linux/elf.h include/linux/kobject.h include/linux/sysfs.h \
  include/linux/kernfs.h include/linux/idr.h include/linux/radix-tree.h \
  include/linux/xarray.h include/linux/sched/mm.h \
  include/linux/sync_core.h arch/x86/include/asm/sync_core.h \
  include/linux/ioasid.h include/linux/kobject_ns.h \
  include/linux/moduleparam.h include/linux/rbtree_latch.h \
  include/linux/error-injection.h include/asm-generic/error-injection.h \
  arch/x86/include/asm/module.h include/asm-generic/module.h \
  include/linux/ftrace.h include/linux/trace_recursion.h \
  include/linux/interrupt.h include/linux/irqreturn.h \
  include/linux/hardirq.h include/linux/context_tracking_state.h \
  include/linux/ftrace_irq.h include/linux/vtime.h \
  arch/x86/include/asm/hardirq.h arch/x86/include/asm/irq.h \
  arch/x86/include/asm/irq_vectors.h arch/x86/include/asm/sections.h \
  include/asm-generic/sections.h arch/x86/include/asm/extable.h \
  include/linux/trace_clock.h arch/x86/include/asm/trace_clock.h \
  include/linux/kallsyms.h include/linux/mm.h include/linux/mmap_lock.h \
  include/linux/percpu-refcount.h include/linux/bit_spinlock.h \
  include/linux/shrinker.h include/linux/page_ext.h \
  include/linux/stacktrace.h include/linux/stackdepot.h \
  include/linux/page_ref.h include/linux/sizes.h include/linux/pgtable.h \
  arch/x86/include/asm/pgtable.h arch/x86/include/asm/pkru.h \
  arch/x86/include/asm/fpu/api.h arch/x86/include/asm/coco.h \
  include/asm-generic/pgtable_uffd.h include/linux/page_table_check.h \
  arch/x86/include/asm/pgtable_64.h arch/x86/include/asm/fixmap.h \
  arch/x86/include/uapi/asm/vsyscall.h include/asm-generic/fixmap.h \
  arch/x86/include/asm/pgtable-invert.h include/linux/kasan.h \
  include/linux/kasan-enabled.h include/linux/memremap.h \
  include/linux/ioport.h include/linux/huge_mm.h \
  include/linux/sched/coredump.h include/linux/fs.h \
  include/linux/wait_bit.h include/linux/kdev_t.h \
  include/uapi/linux/kdev_t.h include/linux/dcache.h \
  include/linux/rculist_bl.h include/linux/list_bl.h \
  include/linux/lockref.h include/linux/stringhash.h \
  include/linux/hash.h include/linux/path.h include/linux/list_lru.h \
  include/linux/capability.h include/uapi/linux/capability.h \
  include/linux/semaphore.h include/linux/fcntl.h \
  include/uapi/linux/fcntl.h arch/x86/include/generated/uapi/asm/fcntl.h \
  include/uapi/asm-generic/fcntl.h include/uapi/linux/openat2.h \
  include/linux/migrate_mode.h include/linux/percpu-rwsem.h \
  include/linux/rcuwait.h include/linux/sched/signal.h \
  include/linux/signal.h include/linux/sched/jobctl.h \
  include/linux/sched/task.h include/linux/uaccess.h \
  include/linux/fault-inject-usercopy.h arch/x86/include/asm/uaccess.h \
  arch/x86/include/asm/smap.h include/asm-generic/access_ok.h \
  arch/x86/include/asm/uaccess_64.h include/linux/cred.h \
  include/linux/key.h include/linux/assoc_array.h \
  include/linux/sched/user.h include/linux/percpu_counter.h \
  include/linux/ratelimit.h include/linux/rcu_sync.h \
  include/linux/delayed_call.h include/linux/uuid.h \
  include/uapi/linux/uuid.h include/linux/errseq.h \
  include/linux/ioprio.h include/linux/sched/rt.h \
  include/linux/iocontext.h include/uapi/linux/ioprio.h \
  include/linux/fs_types.h include/linux/mount.h \
  include/linux/mnt_idmapping.h include/linux/slab.h \
  include/uapi/linux/fs.h include/linux/quota.h \
  include/uapi/linux/dqblk_xfs.h include/linux/dqblk_v1.h \
  include/linux/dqblk_v2.h include/linux/dqblk_qtree.h \
  include/linux/projid.h include/uapi/linux/quota.h \
  include/linux/nfs_fs_i.h include/linux/vmstat.h \
  include/linux/vm_event_item.h include/linux/ptrace.h \
  include/linux/pid_namespace.h include/linux/nsproxy.h \
  include/linux/ns_common.h include/uapi/linux/ptrace.h \
  arch/x86/include/asm/ftrace.h include/linux/context_tracking.h
