// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// Reading structured values off a fuzzer's bytes: each take consumes what it returns, and an
// exhausted input reads as zeros and empty strings, so every input is a valid one.
#pragma once

#include <QtCore/qbytearray.h>

#include <cstddef>
#include <cstdint>

class FuzzInput
{
public:
    FuzzInput(const uint8_t *data, size_t size) : m_data(data), m_size(size) { }

    [[nodiscard]] bool atEnd() const { return m_at >= m_size; }
    uint8_t byte() { return atEnd() ? 0 : m_data[m_at++]; }
    uint64_t number(int bytes)
    {
        uint64_t n = 0;
        for (int i = 0; i < bytes; ++i)
            n = (n << 8) | byte();
        return n;
    }
    // Up to `longest` bytes, the length read first.
    QByteArray bytes(size_t longest)
    {
        const size_t n = std::min<size_t>(byte() % (longest + 1), m_size - std::min(m_at, m_size));
        QByteArray out(reinterpret_cast<const char *>(m_data + m_at), qsizetype(n));
        m_at += n;
        return out;
    }
    QByteArray rest()
    {
        const size_t from = std::min(m_at, m_size);
        m_at = m_size;
        return QByteArray(reinterpret_cast<const char *>(m_data + from), qsizetype(m_size - from));
    }

private:
    const uint8_t *m_data;
    size_t m_size;
    size_t m_at = 0;
};
