// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
// Who leads, without running: an observer reports the current leader once started, then
// every change. So that something changes, two candidates run in this process too: alpha
// wins, hands off to beta, and beta leaves, after which nobody leads.
// Usage: etcdqt-example-observer [http://127.0.0.1:2379]
#include "exampleutil.h"

#include <EtcdQt/EtcdQt>

#include <QtCore/qcoreapplication.h>

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    EtcdClient client({endpointArgument(argc, argv)});
    client.connectToEndpoints();
    const QByteArray path = "/example/election/observed"_ba;
    EtcdLeaderObserver observer(&client, path);
    EtcdLeaderSelector alpha(&client, path, {.ttl = 5s, .clientId = u"alpha"_s});
    EtcdLeaderSelector beta(&client, path, {.ttl = 5s, .clientId = u"beta"_s});
    const auto name = [](const QString &id) { return id.isEmpty() ? u"(nobody)"_s : id; };
    bool betaLed = false;
    bool vacantAgain = false;
    int closedCandidates = 0;
    // Quit once nobody leads and both candidates' revokes were answered: no lease is left.
    auto finishWhenDone = [&] {
        if (vacantAgain && closedCandidates == 2)
            observer.close();
    };

    QObject::connect(&observer, &EtcdLeaderObserver::started, &app, [&] {
        out() << "observing " << path << "; leader now: " << name(observer.currentLeader())
              << Qt::endl;
        alpha.start();
    });
    QObject::connect(&observer, &EtcdLeaderObserver::leaderChanged, &app, [&](const QString &id) {
        out() << "leader changed to " << name(id) << Qt::endl;
        if (id == u"alpha"_s) {
            beta.start(); // beta waits in the running behind alpha
        } else if (id == u"beta"_s) {
            betaLed = true;
            beta.close(); // and leaves: nobody is left to lead
        } else if (id.isEmpty() && betaLed) {
            vacantAgain = true;
            finishWhenDone();
        }
    });
    QObject::connect(&beta, &EtcdLeaderSelector::started, &app, [&alpha] {
        alpha.close(); // alpha hands off: its lease is revoked and beta wins at once
    });
    for (EtcdLeaderSelector *candidate : {&alpha, &beta}) {
        QObject::connect(candidate, &EtcdRecipe::closed, &app, [&] {
            ++closedCandidates;
            finishWhenDone();
        });
    }
    QObject::connect(&observer, &EtcdRecipe::closed, &app, [] {
        out() << "closed" << Qt::endl;
        QCoreApplication::quit();
    });
    const auto fail = [](const EtcdStatus &why) {
        out() << "failed: " << why.toString() << Qt::endl;
        QCoreApplication::exit(1);
    };
    QObject::connect(&observer, &EtcdLeaderObserver::failed, &app, fail);
    QObject::connect(&alpha, &EtcdLeaderSelector::failed, &app, fail);
    QObject::connect(&beta, &EtcdLeaderSelector::failed, &app, fail);
    observer.start();
    return QCoreApplication::exec();
}
