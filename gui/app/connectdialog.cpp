// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "connectdialog.h"

#include "profiles.h"

#include <QtCore/qobject.h>
#include <QtWidgets/qboxlayout.h>
#include <QtWidgets/qcombobox.h>
#include <QtWidgets/qdialogbuttonbox.h>
#include <QtWidgets/qformlayout.h>
#include <QtWidgets/qlabel.h>
#include <QtWidgets/qlineedit.h>
#include <QtWidgets/qpushbutton.h>

namespace Inspector {

ConnectDialog::ConnectDialog(QWidget *parent)
    : QDialog(parent), m_profiles(new QComboBox(this)), m_name(new QLineEdit(this)),
      m_endpoints(new QLineEdit(this)), m_prefix(new QLineEdit(QStringLiteral("/"), this)),
      m_caCert(new QLineEdit(this)), m_cert(new QLineEdit(this)), m_key(new QLineEdit(this)),
      m_user(new QLineEdit(this)), m_password(new QLineEdit(this)), m_error(new QLabel(this))
{
    setWindowTitle(tr("Connect to etcd"));
    m_profiles->addItem(tr("(new profile)"));
    m_profiles->addItems(profileNames());
    m_endpoints->setPlaceholderText(QStringLiteral("http://127.0.0.1:2379"));
    m_password->setEchoMode(QLineEdit::Password);
    m_password->setPlaceholderText(tr("not saved"));
    m_error->setWordWrap(true);
    m_error->setTextFormat(Qt::PlainText); // it repeats what was typed: names, endpoints
    m_error->setStyleSheet(QStringLiteral("color: #c62828"));
    auto *form = new QFormLayout;
    form->addRow(tr("&Profile:"), m_profiles);
    form->addRow(tr("&Name:"), m_name);
    form->addRow(tr("&Endpoints:"), m_endpoints);
    form->addRow(tr("P&refix:"), m_prefix);
    form->addRow(tr("&CA certificate:"), m_caCert);
    form->addRow(tr("Client cer&tificate:"), m_cert);
    form->addRow(tr("Client &key:"), m_key);
    form->addRow(tr("&User:"), m_user);
    form->addRow(tr("Pass&word:"), m_password);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    buttons->addButton(tr("C&onnect"), QDialogButtonBox::AcceptRole)->setDefault(true);
    QPushButton *save = buttons->addButton(tr("&Save profile"), QDialogButtonBox::ActionRole);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_error);
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, &ConnectDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &ConnectDialog::reject);
    connect(save, &QPushButton::clicked, this, &ConnectDialog::saveCurrent);
    connect(m_profiles, &QComboBox::currentTextChanged, this, &ConnectDialog::profileChosen);
}

void ConnectDialog::showProfile(const ConnectionProfile &p)
{
    m_name->setText(p.name);
    m_endpoints->setText(p.endpoints);
    m_prefix->setText(p.prefix);
    m_caCert->setText(p.caCertificate);
    m_cert->setText(p.clientCertificate);
    m_key->setText(p.clientKey);
    m_user->setText(p.user);
    m_password->clear();
    // Only the combo's display follows: choosing it would load the saved copy over the
    // fields just shown.
    const QSignalBlocker quiet(m_profiles);
    const int index = m_profiles->findText(p.name);
    m_profiles->setCurrentIndex(std::max(index, 0));
}

void ConnectDialog::profileChosen(const QString &name)
{
    if (m_profiles->currentIndex() == 0)
        return;
    if (const auto p = loadProfile(name))
        showProfile(*p);
}

ConnectionProfile ConnectDialog::current() const
{
    ConnectionProfile p;
    p.name = m_name->text().trimmed();
    p.endpoints = m_endpoints->text().trimmed();
    p.prefix = m_prefix->text();
    p.caCertificate = m_caCert->text().trimmed();
    p.clientCertificate = m_cert->text().trimmed();
    p.clientKey = m_key->text().trimmed();
    p.user = m_user->text().trimmed();
    return p;
}

void ConnectDialog::saveCurrent()
{
    const ConnectionProfile p = current();
    if (p.name.isEmpty()) {
        m_error->setText(tr("Give the profile a name to save it."));
        return;
    }
    saveProfile(p);
    if (m_profiles->findText(p.name) < 0)
        m_profiles->addItem(p.name);
    m_error->setText(tr("Profile \"%1\" saved (without the password).").arg(p.name));
}

InspectorSession::Options ConnectDialog::options() const
{
    return sessionOptions(current(), m_password->text());
}

void ConnectDialog::accept()
{
    const QString why = InspectorSession::validate(options());
    if (!why.isEmpty()) {
        m_error->setText(why);
        return;
    }
    QDialog::accept();
}

} // namespace Inspector
