// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "recipeevent.h"

#include <QtCore/qcoreapplication.h>

namespace Inspector {

QString typeName(RecipeEvent::Type type)
{
    using T = RecipeEvent::Type;
    const char *const c = "Inspector::RecipeEvent";
    switch (type) {
    case T::LeaderElected:
        return QCoreApplication::translate(c, "leader elected");
    case T::LeaderLost:
        return QCoreApplication::translate(c, "leader lost");
    case T::CandidateJoined:
        return QCoreApplication::translate(c, "candidate joined");
    case T::CandidateLeft:
        return QCoreApplication::translate(c, "candidate left");
    case T::Acquired:
        return QCoreApplication::translate(c, "acquired");
    case T::Released:
        return QCoreApplication::translate(c, "released");
    case T::Queued:
        return QCoreApplication::translate(c, "queued");
    case T::BarrierSet:
        return QCoreApplication::translate(c, "barrier set");
    case T::BarrierLifted:
        return QCoreApplication::translate(c, "barrier lifted");
    case T::MemberArrived:
        return QCoreApplication::translate(c, "member arrived");
    case T::BarrierTripped:
        return QCoreApplication::translate(c, "barrier tripped");
    case T::NumberChanged:
        return QCoreApplication::translate(c, "count changed");
    case T::KeyAppeared:
        return QCoreApplication::translate(c, "key appeared");
    case T::KeyVanished:
        return QCoreApplication::translate(c, "key vanished");
    case T::Anomaly:
        return QCoreApplication::translate(c, "anomaly");
    case T::Flapping:
        return QCoreApplication::translate(c, "flapping");
    case T::Connection:
        return QCoreApplication::translate(c, "connection");
    }
    return {};
}

} // namespace Inspector
