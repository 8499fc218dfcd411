// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
// The counting allocator behind alloccount.h: this executable defines malloc and its
// siblings, so the dynamic linker binds every library's calls to them (symbol
// interposition), and each forwards to glibc's own entry point (__libc_malloc & co.) after
// one relaxed atomic increment and one thread-local one. free() is not interposed: only
// allocations are counted. Sanitizer builds keep their allocator and count nothing.
#include "alloccount.h"

#include <atomic>
#include <cerrno>
#include <cstddef>

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define ETCDQT_BENCH_NO_ALLOC_COUNT 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define ETCDQT_BENCH_NO_ALLOC_COUNT 1
#endif
#endif

namespace {
std::atomic<long long> g_total {0};
// initial-exec: reading it never allocates (a dynamic TLS block would, inside malloc).
__attribute__((tls_model("initial-exec"))) thread_local long long t_count = 0;
} // namespace

namespace Bench::Allocations {

bool counted()
{
#ifdef ETCDQT_BENCH_NO_ALLOC_COUNT
    return false;
#else
    return true;
#endif
}

long long total()
{
    return counted() ? g_total.load(std::memory_order_relaxed) : -1;
}

long long thisThread()
{
    return counted() ? t_count : -1;
}

} // namespace Bench::Allocations

#ifndef ETCDQT_BENCH_NO_ALLOC_COUNT
extern "C" {
void *__libc_malloc(size_t size);
void *__libc_calloc(size_t n, size_t size);
void *__libc_realloc(void *p, size_t size);
void *__libc_memalign(size_t alignment, size_t size);

namespace {
inline void count()
{
    g_total.fetch_add(1, std::memory_order_relaxed);
    ++t_count;
}
} // namespace

__attribute__((visibility("default"))) void *malloc(size_t size)
{
    count();
    return __libc_malloc(size);
}

__attribute__((visibility("default"))) void *calloc(size_t n, size_t size)
{
    count();
    return __libc_calloc(n, size);
}

__attribute__((visibility("default"))) void *realloc(void *p, size_t size)
{
    count();
    return __libc_realloc(p, size);
}

__attribute__((visibility("default"))) void *memalign(size_t alignment, size_t size)
{
    count();
    return __libc_memalign(alignment, size);
}

__attribute__((visibility("default"))) void *aligned_alloc(size_t alignment, size_t size)
{
    count();
    return __libc_memalign(alignment, size);
}

__attribute__((visibility("default"))) int posix_memalign(void **out, size_t alignment, size_t size)
{
    // glibc's own checks: a power of two and a multiple of sizeof(void *).
    if (alignment % sizeof(void *) != 0 || (alignment & (alignment - 1)) != 0)
        return EINVAL;
    count();
    void *p = __libc_memalign(alignment, size);
    if (!p)
        return ENOMEM;
    *out = p;
    return 0;
}
} // extern "C"
#endif
