// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
//  W A R N I N G: internal header, not part of the EtcdQt API.
#pragma once

#include "recipelayer_p.h"

#include <EtcdQt/etcdstatus.h>

#include <QtCore/qobject.h>
#include <QtCore/qpointer.h>

#include <memory>

class EtcdClient;
class EtcdWatch;

namespace Etcd::Internal {

// One wait for a key to be deleted: a probe (is it there, at which revision), then a watch
// of deletions anchored right after the probe, so a deletion between the two is not missed.
// After a compaction gap it probes again and lifts if the key went meanwhile. Used by the
// barrier; finished() comes once. The watch's suspensions and resumptions go to `sink`.
class KeyWait : public QObject
{
    Q_OBJECT
public:
    struct Options
    {
        QByteArray key;
        bool liftIfMissing = false; // an absent key lifts at once (else: wait for set + delete)
    };

    KeyWait(EtcdClient *client, const Options &options, QObject *parent, ConnectionSink sink = {});
    ~KeyWait() override;
    void start();

Q_SIGNALS:
    void parked(); // the probe answered: from here on no deletion can be missed
    void finished(bool lifted);
    void errorOccurred(const EtcdStatus &status);

private:
    void probe(bool resyncing);
    void onProbed(const EtcdStatus &status, bool present, qint64 revision, bool resyncing);
    void follow(qint64 revision);
    void end(bool lifted);

    QPointer<EtcdClient> m_client; // null once destroyed: the probe then fails NotConnected
    Options m_options;
    ConnectionSink m_sink;
    std::unique_ptr<EtcdWatch> m_watch;
    bool m_presentSeen = false;
    bool m_done = false;
};

} // namespace Etcd::Internal
