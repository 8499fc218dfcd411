// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
// Heap allocations counted per process and per thread (issue 21 item 3: what an operation
// allocates in steady state). alloccount.cpp interposes malloc and its siblings for the whole
// process, so operator new, Qt, gRPC and protobuf are all counted. No Qt here: the raw gRPC
// floor links it too.
#pragma once

namespace Bench::Allocations {

// Whether allocations are counted: not in a sanitizer build, whose allocator owns malloc.
bool counted();
// Allocations (malloc, calloc, realloc, the aligned forms; operator new goes through malloc)
// made so far by every thread of this process, and by the calling thread.
long long total();
long long thisThread();

// Counts what happens between construction and perOp(): allocations per operation over n.
class Window
{
public:
    Window() : m_total(total()), m_thread(thisThread()) { }
    // Allocations of the process (all threads) and of this thread since construction.
    [[nodiscard]] long long process() const { return total() - m_total; }
    [[nodiscard]] long long thread() const { return thisThread() - m_thread; }

private:
    long long m_total;
    long long m_thread;
};

} // namespace Bench::Allocations
