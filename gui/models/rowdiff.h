// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// Edits a model's list of rows into the next list with row signals for exactly what changed.
// A watch delivers many small changes: a reset per change would make views lose scroll
// position, selection and expansion, and costs a full relayout. The models call this for
// their top level and for each parent's children alike.
#pragma once

#include <QtCore/qhash.h>
#include <QtCore/qlist.h>

#include <algorithm>
#include <type_traits>
#include <vector>

namespace Inspector {

namespace Detail {
// Which rows can stay where they are: the longest run of rows whose positions in the next
// list increase (patience sorting, O(n log n)). Every other surviving row has moved and is
// removed and inserted again; rows with target -1 are gone.
inline std::vector<bool> rowsInOrder(const std::vector<qsizetype> &target)
{
    const qsizetype n = qsizetype(target.size());
    std::vector<qsizetype> tails; // tails[k]: the row ending the best increasing run of length k+1
    std::vector<qsizetype> previous(n, -1);
    for (qsizetype i = 0; i < n; ++i) {
        if (target[i] < 0)
            continue;
        const auto at = std::lower_bound(tails.cbegin(), tails.cend(), target[i],
            [&target](qsizetype row, qsizetype value) { return target[row] < value; });
        const qsizetype length = at - tails.cbegin();
        previous[i] = length > 0 ? tails[length - 1] : -1;
        if (length == qsizetype(tails.size()))
            tails.push_back(i);
        else
            tails[length] = i;
    }
    std::vector<bool> keep(n, false);
    for (qsizetype i = tails.empty() ? -1 : tails.back(); i >= 0; i = previous[i])
        keep[i] = true;
    return keep;
}

template <typename Edit>
bool sameKeys(const Edit &edit)
{
    if (edit.size() != edit.nextSize())
        return false;
    for (qsizetype i = 0; i < edit.size(); ++i) {
        if (edit.key(i) != edit.nextKey(i))
            return false;
    }
    return true;
}

// Removes the rows whose key is gone and the rows that moved, leaving rows in next order.
template <typename Edit>
void removeGoneAndMoved(Edit &edit)
{
    using Key = std::decay_t<decltype(edit.key(0))>;
    QHash<Key, qsizetype> nextAt;
    nextAt.reserve(edit.nextSize());
    for (qsizetype i = 0; i < edit.nextSize(); ++i)
        nextAt.insert(edit.nextKey(i), i);
    Q_ASSERT(nextAt.size() == edit.nextSize()); // keys must be unique

    std::vector<qsizetype> target(edit.size());
    for (qsizetype row = 0; row < edit.size(); ++row)
        target[row] = nextAt.value(edit.key(row), -1);
    const std::vector<bool> keep = rowsInOrder(target);

    // Back to front, so the row numbers of runs still to come stay valid.
    for (qsizetype end = qsizetype(keep.size()); end > 0;) {
        if (keep[end - 1]) {
            --end;
            continue;
        }
        qsizetype first = end - 1;
        while (first > 0 && !keep[first - 1])
            --first;
        edit.remove(first, end - first);
        end = first;
    }
}
} // namespace Detail

// Rows are identified by unique keys. `Edit` is the model side:
//   size(), key(row)           the current rows (edited as this goes)
//   nextSize(), nextKey(i)     the next rows
//   remove(first, count)       erase rows, between beginRemoveRows and endRemoveRows
//   insert(at, nextFirst, n)   insert next rows, between beginInsertRows and endInsertRows
//   update(row, next)          replace a kept row with its next version; true if it changed
//   changed(first, last)       one dataChanged for a run of changed rows
// O(n log n) at worst, O(n) without hashing when the keys are the same as before (the common
// case for the children of one recipe).
template <typename Edit>
void applyRowDiff(Edit &edit)
{
    if (!Detail::sameKeys(edit))
        Detail::removeGoneAndMoved(edit);

    // The kept rows are now in next order: walk both, inserting what lies between them.
    const qsizetype nextSize = edit.nextSize();
    qsizetype row = 0;
    qsizetype changedFirst = -1;
    const auto flush = [&] {
        if (changedFirst >= 0)
            edit.changed(changedFirst, row - 1);
        changedFirst = -1;
    };
    for (qsizetype i = 0; i < nextSize;) {
        if (row < edit.size() && edit.key(row) == edit.nextKey(i)) {
            if (!edit.update(row, i))
                flush();
            else if (changedFirst < 0)
                changedFirst = row;
            ++row;
            ++i;
            continue;
        }
        flush();
        qsizetype end = i + 1;
        while (end < nextSize && !(row < edit.size() && edit.nextKey(end) == edit.key(row)))
            ++end;
        edit.insert(row, i, end - i);
        row += end - i;
        i = end;
    }
    flush();
}

} // namespace Inspector
