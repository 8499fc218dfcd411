// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// Where to connect: a saved profile or typed-in settings, checked before the dialog closes.
#pragma once

#include "inspectorsession.h"

#include <QtWidgets/qdialog.h>

class QComboBox;
class QLabel;
class QLineEdit;

namespace Inspector {

struct ConnectionProfile;

class ConnectDialog : public QDialog
{
    Q_OBJECT
public:
    explicit ConnectDialog(QWidget *parent = nullptr);

    void showProfile(const ConnectionProfile &profile);
    [[nodiscard]] InspectorSession::Options options() const;
    void accept() override; // refuses (and says why) options that cannot work

private:
    void profileChosen(const QString &name);
    void saveCurrent();
    [[nodiscard]] ConnectionProfile current() const;

    QComboBox *m_profiles;
    QLineEdit *m_name;
    QLineEdit *m_endpoints;
    QLineEdit *m_prefix;
    QLineEdit *m_caCert;
    QLineEdit *m_cert;
    QLineEdit *m_key;
    QLineEdit *m_user;
    QLineEdit *m_password;
    QLabel *m_error;
};

} // namespace Inspector
