// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
//  W A R N I N G: internal header, not part of the EtcdQt API.
#pragma once

#include <QtCore/qmutex.h>

#include <map>
#include <memory>

namespace Etcd::Internal {

// Objects shared by key while anyone holds them (any thread): obtain() hands out the live one
// of a key, or makes it. The registry holds none itself.
template <class Key, class T>
class WeakRegistry
{
public:
    // The live object of `key` for which usable(object) holds, else a new one from make().
    template <class Usable, class Make>
    std::shared_ptr<T> obtain(const Key &key, Usable usable, Make make)
    {
        QMutexLocker lock(&m_mutex);
        std::weak_ptr<T> &entry = m_byKey[key];
        if (auto live = entry.lock(); live && usable(*live))
            return live;
        std::shared_ptr<T> made = make();
        entry = made;
        return made;
    }
    // Drops the entry of `key` once its object is gone (not a newer object's of the same key).
    void forget(const Key &key)
    {
        QMutexLocker lock(&m_mutex);
        const auto it = m_byKey.find(key);
        if (it != m_byKey.end() && it->second.expired())
            m_byKey.erase(it);
    }

private:
    QMutex m_mutex;
    std::map<Key, std::weak_ptr<T>> m_byKey;
};

} // namespace Etcd::Internal
