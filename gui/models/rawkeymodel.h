// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// The keys no recipe claimed, one row each, kept current by diffing on the key.
#pragma once

#include "modelroles.h"

#include <recipeview.h>

#include <QtCore/qabstractitemmodel.h>

namespace Inspector {

class RawKeyModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column {
        KeyColumn,
        ValueColumn, // text when it is UTF-8, else hex; cut to about 200 characters
        CreateRevisionColumn,
        ModRevisionColumn,
        VersionColumn,
        LeaseColumn,
        ColumnCount
    };

    explicit RawKeyModel(QObject *parent = nullptr);

    void setView(const Etcd::Decode::View &view);
    [[nodiscard]] const EtcdKeyValue &keyValueAt(int row) const { return m_rows.at(row); }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(
        int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    class Edit;

    QList<EtcdKeyValue> m_rows; // in the view's order: by key
    QByteArray m_prefix; // the view's: keys below it are shown without it
};

} // namespace Inspector
