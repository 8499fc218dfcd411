// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "overviewface.h"

#include "recipetext.h"

#include <QtCore/qcoreapplication.h>

#include <algorithm>

using namespace Etcd::Decode;

namespace Inspector {

namespace {
CardChip chipOf(const Entry &e)
{
    CardChip c;
    c.label = RecipeText::who(e);
    c.lease = e.lease;
    c.decodedTtl = e.ttl;
    switch (e.side) {
    case Side::Read:
        c.side = QStringLiteral("R");
        break;
    case Side::Write:
        c.side = QStringLiteral("W");
        break;
    case Side::Enter:
        c.side = QCoreApplication::translate("Inspector::Overview", "in");
        break;
    case Side::Leave:
        c.side = QCoreApplication::translate("Inspector::Overview", "out");
        break;
    case Side::None:
        break;
    }
    return c;
}

QList<Entry> byCreation(QList<Entry> entries)
{
    std::stable_sort(entries.begin(), entries.end(),
        [](const Entry &a, const Entry &b) { return a.createRevision < b.createRevision; });
    return entries;
}

// Candidates in the order they joined, the leader among them; a leader with no participation
// key of its own (etcd's concurrency.Election: the earliest key leads) is its own chip.
void electionChips(const Recipe &r, CardFace &f)
{
    const Entry *leader = r.first(Role::Leader);
    QList<Entry> candidates = r.withRole(Role::Participant);
    const bool listed = leader
        && std::any_of(candidates.cbegin(), candidates.cend(),
            [leader](const Entry &e) { return e.owner == leader->owner && !e.owner.isEmpty(); });
    if (leader && !listed)
        candidates.append(*leader);
    for (const Entry &e : byCreation(candidates)) {
        CardChip c = chipOf(e);
        c.owns
            = leader && (e.key == leader->key || (!e.owner.isEmpty() && e.owner == leader->owner));
        f.chips.append(c);
    }
    if (leader)
        f.token = QCoreApplication::translate("Inspector::Overview", "term %1")
                      .arg(leader->createRevision);
}

// Holders and waiters in the order they queued: a hand-off moves the highlight along the row.
void queueChips(const Recipe &r, CardFace &f)
{
    QList<Entry> queued = r.withRole(Role::Holder);
    queued += r.withRole(Role::Waiter);
    queued += r.withRole(Role::Unranked);
    for (const Entry &e : byCreation(queued)) {
        CardChip c = chipOf(e);
        c.owns = e.role == Role::Holder;
        c.waits = e.role == Role::Waiter;
        f.chips.append(c);
    }
    if (const Entry *holder = r.first(Role::Holder))
        f.token = QCoreApplication::translate("Inspector::Overview", "token %1")
                      .arg(holder->createRevision);
}

void chipsOfRole(const Recipe &r, Role role, bool owns, CardFace &f)
{
    for (const Entry &e : byCreation(r.withRole(role))) {
        CardChip c = chipOf(e);
        c.owns = owns;
        f.chips.append(c);
    }
}

void semaphore(const Recipe &r, CardFace &f)
{
    queueChips(r, f);
    if (!r.number)
        return;
    const qint64 used = r.count(Role::Holder);
    f.gauge = CardGauge {used, *r.number,
        QCoreApplication::translate(
            "Inspector::Overview", "%1 of %n permit(s) held", nullptr, int(*r.number))
            .arg(used)};
}

void queue(const Recipe &r, CardFace &f)
{
    f.bigNumber = QString::number(r.number.value_or(0));
    f.bigNumberCaption = QCoreApplication::translate("Inspector::Overview", "waiting");
    for (const Entry &e : r.entries) {
        if (e.role != Role::Claim)
            continue;
        CardChip c = chipOf(e);
        c.owns = true;
        f.chips.append(c);
    }
}
} // namespace

int CardFace::ownerChip() const
{
    for (int i = 0; i < chips.size(); ++i) {
        if (chips[i].owns)
            return i;
    }
    return -1;
}

QString CardFace::ownerLabel() const
{
    const int i = ownerChip();
    return i < 0 ? QString() : chips[i].label;
}

namespace {
// Whether two recipes at one path have the same keys: everything a face is made from (the
// keys' values change only with their mod revisions).
bool sameKeys(const Recipe &a, const Recipe &b)
{
    if (a.kind != b.kind || a.number != b.number || a.entries.size() != b.entries.size())
        return false;
    for (qsizetype i = 0; i < a.entries.size(); ++i) {
        const Entry &x = a.entries[i];
        const Entry &y = b.entries[i];
        if (x.modRevision != y.modRevision || x.createRevision != y.createRevision
            || x.role != y.role || x.side != y.side || x.version != y.version || x.lease != y.lease
            || x.ttl != y.ttl || x.key != y.key)
            return false;
    }
    return true;
}

bool agesWithTheClock(Kind kind)
{
    return kind == Kind::Queue || kind == Kind::PriorityQueue || kind == Kind::WorkQueue;
}
} // namespace

bool FaceCache::setView(const View &view, qint64 wallNowMs, QList<Change> *changes)
{
    std::vector<std::unique_ptr<CardFace>> faces(size_t(view.recipes.size()));
    bool samePaths = view.recipes.size() == m_recipes.size();
    qsizetype old = 0;
    for (qsizetype i = 0; i < view.recipes.size(); ++i) {
        const Recipe &r = view.recipes[i];
        while (old < m_recipes.size() && m_recipes[old].path < r.path)
            ++old; // gone since the last view
        if (old == m_recipes.size() || m_recipes[old].path != r.path) {
            samePaths = false; // a new card
            continue;
        }
        if (sameKeys(m_recipes[old], r)) {
            if (!agesWithTheClock(r.kind))
                faces[size_t(i)] = std::move(m_faces[size_t(old)]);
        } else if (changes) {
            Change c {face(old), faceOf(r, wallNowMs)};
            faces[size_t(i)] = std::make_unique<CardFace>(c.after);
            changes->append(std::move(c));
        }
        ++old;
    }
    m_recipes = view.recipes;
    m_wallNowMs = wallNowMs;
    m_faces = std::move(faces);
    return samePaths;
}

qsizetype FaceCache::indexOf(const QByteArray &path) const
{
    const auto at = std::lower_bound(m_recipes.cbegin(), m_recipes.cend(), path,
        [](const Recipe &r, const QByteArray &p) { return r.path < p; });
    return at != m_recipes.cend() && at->path == path ? at - m_recipes.cbegin() : -1;
}

const CardFace &FaceCache::face(qsizetype i) const
{
    std::unique_ptr<CardFace> &f = m_faces[size_t(i)];
    if (!f)
        f = std::make_unique<CardFace>(faceOf(m_recipes[i], m_wallNowMs));
    return *f;
}

QByteArrayView groupViewOf(const QByteArray &path)
{
    const qsizetype slash = path.lastIndexOf('/', path.endsWith('/') ? path.size() - 2 : -1);
    return slash <= 0 ? QByteArrayView("/") : QByteArrayView(path).first(slash + 1);
}

QByteArray groupOf(const QByteArray &path)
{
    return groupViewOf(path).toByteArray();
}

CardFace faceOf(const Recipe &r, qint64 wallNowMs)
{
    CardFace f;
    f.path = r.path;
    f.title = RecipeText::lastSegment(r.path);
    if (f.title.isEmpty())
        f.title = QString::fromUtf8(r.path);
    f.kind = RecipeText::kind(r.kind);
    f.footer = RecipeText::summary(r, wallNowMs);
    switch (r.kind) {
    case Kind::Election:
        electionChips(r, f);
        break;
    case Kind::Mutex:
    case Kind::ReadWriteLock:
        queueChips(r, f);
        break;
    case Kind::Semaphore:
        semaphore(r, f);
        break;
    case Kind::Barrier:
        chipsOfRole(r, Role::Setter, true, f);
        break;
    case Kind::CountedBarrier:
    case Kind::DoubleBarrier:
        chipsOfRole(r, Role::Member, false, f);
        f.bigNumber = QString::number(r.count(Role::Member));
        f.bigNumberCaption = QCoreApplication::translate("Inspector::Overview", "arrived");
        break;
    case Kind::Number:
        f.bigNumber = r.number ? QString::number(*r.number) : QStringLiteral("?");
        break;
    case Kind::TransientKey:
        chipsOfRole(r, Role::Value, true, f);
        break;
    case Kind::Service:
        chipsOfRole(r, Role::Instance, false, f);
        break;
    case Kind::Queue:
    case Kind::PriorityQueue:
    case Kind::WorkQueue:
        queue(r, f);
        break;
    }
    return f;
}

} // namespace Inspector
