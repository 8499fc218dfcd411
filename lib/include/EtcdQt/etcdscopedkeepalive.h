// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <EtcdQt/etcdstatus.h>

#include <chrono>
#include <functional>
#include <memory>

class EtcdClient;
class EtcdKeepAlive;

// Renews a lease for exactly as long as it lives, however the scope ends.
class ETCDQT_EXPORT EtcdScopedKeepAlive
{
public:
    using FailureHandler = std::function<void(const EtcdStatus &reason)>;

    EtcdScopedKeepAlive(EtcdClient *client, qint64 leaseId, std::chrono::seconds ttl,
        FailureHandler onKeepAliveFailed = {});
    ~EtcdScopedKeepAlive();
    EtcdScopedKeepAlive(EtcdScopedKeepAlive &&other) noexcept;
    EtcdScopedKeepAlive &operator=(EtcdScopedKeepAlive &&other) noexcept;
    EtcdScopedKeepAlive(const EtcdScopedKeepAlive &) = delete;
    EtcdScopedKeepAlive &operator=(const EtcdScopedKeepAlive &) = delete;

    [[nodiscard]] EtcdKeepAlive *keepAlive() const;

private:
    std::unique_ptr<EtcdKeepAlive> m_keepAlive;
};
