// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <EtcdQt/etcdrecipe.h>
#include <EtcdQt/etcdserviceinstance.h>

#include <QtCore/qlist.h>

#include <chrono>
#include <functional>
#include <memory>
#include <optional>

class EtcdServiceCache;
class EtcdServiceProviderPrivate;

// A client-side load balancer over the live instances of one service: picks one per call
// from a warm EtcdServiceCache (no RPC), and keeps instances that keep failing out for a while.
class ETCDQT_EXPORT EtcdServiceProvider : public EtcdRecipe
{
    Q_OBJECT
    Q_PROPERTY(Strategy strategy READ strategy NOTIFY strategyChanged)
    Q_PROPERTY(
        int errorThreshold READ errorThreshold WRITE setErrorThreshold NOTIFY errorThresholdChanged)
    Q_PROPERTY(int count READ count NOTIFY countChanged)

public:
    enum class Strategy { Random, RoundRobin, Sticky, Custom };
    Q_ENUM(Strategy)
    // Picks one of `candidates` (never empty): its index, or -1 for none.
    using Selector = std::function<qsizetype(const QList<EtcdServiceInstance> &candidates)>;

    EtcdServiceProvider(EtcdClient *client, const QByteArray &servicePath,
        const QString &serviceName, Strategy strategy = Strategy::Random,
        QObject *parent = nullptr);
    // On a cache someone else owns and starts (several providers may share one).
    explicit EtcdServiceProvider(
        EtcdServiceCache *cache, Strategy strategy = Strategy::Random, QObject *parent = nullptr);
    ~EtcdServiceProvider() override;

    [[nodiscard]] EtcdServiceCache *cache() const;
    [[nodiscard]] Strategy strategy() const;
    void setStrategy(Strategy strategy); // Custom: see setSelector()
    void setSelector(Selector selector); // the strategy becomes Custom
    [[nodiscard]] int errorThreshold() const;
    void setErrorThreshold(int errors);
    [[nodiscard]] std::chrono::milliseconds downPeriod() const;
    void setDownPeriod(std::chrono::milliseconds period);
    [[nodiscard]] int count() const;

    [[nodiscard]] std::optional<EtcdServiceInstance> instance();
    [[nodiscard]] QList<EtcdServiceInstance> allInstances() const;
    [[nodiscard]] QList<EtcdServiceInstance> availableInstances() const;
    void noteError(const EtcdServiceInstance &instance);
    [[nodiscard]] bool isEjected(const EtcdServiceInstance &instance) const;

public Q_SLOTS:
    void start();
    void close();

Q_SIGNALS:
    void started();
    void countChanged();
    void strategyChanged();
    void errorThresholdChanged();
    void instanceEjected(const EtcdServiceInstance &instance);
    void instanceRestored(const EtcdServiceInstance &instance);

private:
    Q_DECLARE_PRIVATE(EtcdServiceProvider)
    std::unique_ptr<EtcdServiceProviderPrivate> const d_ptr;
};
