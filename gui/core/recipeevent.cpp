// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "recipeevent.h"

#include <QtCore/qcoreapplication.h>

namespace Inspector {

QString typeName(RecipeEvent::Type type)
{
    using T = RecipeEvent::Type;
    switch (type) {
    case T::LeaderElected:
        return QCoreApplication::translate("Inspector::RecipeEvent", "leader elected");
    case T::LeaderLost:
        return QCoreApplication::translate("Inspector::RecipeEvent", "leader lost");
    case T::CandidateJoined:
        return QCoreApplication::translate("Inspector::RecipeEvent", "candidate joined");
    case T::CandidateLeft:
        return QCoreApplication::translate("Inspector::RecipeEvent", "candidate left");
    case T::Acquired:
        return QCoreApplication::translate("Inspector::RecipeEvent", "acquired");
    case T::Released:
        return QCoreApplication::translate("Inspector::RecipeEvent", "released");
    case T::Queued:
        return QCoreApplication::translate("Inspector::RecipeEvent", "queued");
    case T::BarrierSet:
        return QCoreApplication::translate("Inspector::RecipeEvent", "barrier set");
    case T::BarrierLifted:
        return QCoreApplication::translate("Inspector::RecipeEvent", "barrier lifted");
    case T::MemberArrived:
        return QCoreApplication::translate("Inspector::RecipeEvent", "member arrived");
    case T::BarrierTripped:
        return QCoreApplication::translate("Inspector::RecipeEvent", "barrier tripped");
    case T::NumberChanged:
        return QCoreApplication::translate("Inspector::RecipeEvent", "count changed");
    case T::KeyAppeared:
        return QCoreApplication::translate("Inspector::RecipeEvent", "key appeared");
    case T::KeyVanished:
        return QCoreApplication::translate("Inspector::RecipeEvent", "key vanished");
    case T::Anomaly:
        return QCoreApplication::translate("Inspector::RecipeEvent", "anomaly");
    case T::Flapping:
        return QCoreApplication::translate("Inspector::RecipeEvent", "flapping");
    case T::Connection:
        return QCoreApplication::translate("Inspector::RecipeEvent", "connection");
    case T::InstanceRegistered:
        return QCoreApplication::translate("Inspector::RecipeEvent", "instance registered");
    case T::InstanceUpdated:
        return QCoreApplication::translate("Inspector::RecipeEvent", "instance updated");
    case T::InstanceGone:
        return QCoreApplication::translate("Inspector::RecipeEvent", "instance gone");
    }
    return {};
}

} // namespace Inspector
