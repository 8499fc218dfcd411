// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// MainWindow's selection-driven parts: the recipe details pane, the write actions with their
// blast-radius confirmation, and the screenshot capture.
#include "mainwindow.h"

#include <QtCore/qcoreapplication.h>

#include "eventlogmodel.h"
#include "modelclock.h"
#include "modelroles.h"
#include "pages.h"
#include "recipetext.h"
#include "viewdiff.h"

#include <EtcdQt/etcdreplies.h>

#include <QtCore/qdir.h>
#include <QtGui/qtextdocument.h>
#include <QtWidgets/qabstractitemview.h>
#include <QtWidgets/qmessagebox.h>
#include <QtWidgets/qstatusbar.h>
#include <QtWidgets/qtabwidget.h>

namespace Inspector {

using namespace Etcd::Decode;

namespace {
constexpr qsizetype kDetailRows = 100;
} // namespace

const Recipe *MainWindow::selectedRecipe() const
{
    if (m_tabs->currentIndex() != RecipesView)
        return nullptr;
    const QByteArray path = m_recipesPage->currentSourceIndex().data(PathRole).toByteArray();
    for (const Recipe &r : m_session->view().recipes) {
        if (r.path == path)
            return &r;
    }
    return nullptr;
}

qint64 MainWindow::selectedLease() const
{
    if (m_tabs->currentIndex() == RecipesView)
        return m_recipesPage->currentSourceIndex().data(LeaseRole).toLongLong();
    if (m_tabs->currentIndex() == LeasesView)
        return m_leasesPage->currentSourceIndex().data(LeaseRole).toLongLong();
    return 0;
}

void MainWindow::updateActions()
{
    const Recipe *r = selectedRecipe();
    const QList<RecipeAction> possible = r ? actionsFor(*r) : QList<RecipeAction>();
    const auto has = [&possible](RecipeAction::Type t) {
        return std::any_of(
            possible.cbegin(), possible.cend(), [t](const RecipeAction &a) { return a.type == t; });
    };
    const bool writes = !m_launch.readOnly;
    m_stepDown->setEnabled(writes && has(RecipeAction::Type::StepDown));
    m_release->setEnabled(writes && has(RecipeAction::Type::ReleaseLock));
    m_lift->setEnabled(writes && has(RecipeAction::Type::LiftBarrier));
    m_revoke->setEnabled(writes && selectedLease() != 0);
    for (QAction *a : std::as_const(m_writeActions)) {
        a->setStatusTip(
            writes ? QString() : tr("Read-only: start with --read-only=false to enable this."));
    }
}

void MainWindow::updateDetails()
{
    const Recipe *r = selectedRecipe();
    if (!r) {
        m_recipesPage->showDetails(QString());
        return;
    }
    const qint64 wallNow = QDateTime::currentMSecsSinceEpoch();
    QString html = QStringLiteral("<h3>%1 <code>%2</code></h3><p>%3</p>")
                       .arg(RecipeText::kind(r->kind).toHtmlEscaped(),
                           RecipeText::printable(r->path).toHtmlEscaped(),
                           RecipeText::summary(*r, wallNow).toHtmlEscaped());
    // A queue's facts, one a line; the lines of a list are indented under their heading.
    for (const QString &line :
        RecipeText::details(*r, wallNow, &m_session->leaseClock(), monotonicMs())) {
        const bool nested = line.startsWith(QLatin1String("    "));
        html += QStringLiteral("<p style=\"margin-top:%1px; margin-bottom:0; margin-left:%2px\">"
                               "%3</p>")
                    .arg(nested ? 0 : 4)
                    .arg(nested ? 16 : 0)
                    .arg(line.trimmed().toHtmlEscaped());
    }
    html += QStringLiteral("<table cellspacing=4><tr><th align=left>%1</th><th align=left>%2</th>"
                           "<th align=left>%3</th><th align=left>%4</th></tr>")
                .arg(tr("Role"), tr("Who"), tr("Token"), tr("Lease"));
    // A queue can hold thousands of keys: the table shows the first ones, the tree has all.
    const qsizetype shown = std::min<qsizetype>(r->entries.size(), kDetailRows);
    for (qsizetype i = 0; i < shown; ++i) {
        const Entry &e = r->entries.at(i);
        html += QStringLiteral("<tr><td>%1</td><td>%2</td><td>%3</td><td>%4</td></tr>")
                    .arg(RecipeText::roleWithSide(e).toHtmlEscaped(),
                        RecipeText::who(e).toHtmlEscaped(), QString::number(e.createRevision),
                        RecipeText::leaseHex(e.lease));
    }
    html += QStringLiteral("</table>");
    if (r->entries.size() > shown)
        html += QStringLiteral("<p>%1</p>")
                    .arg(tr("… and %n more key(s)", nullptr, int(r->entries.size() - shown))
                             .toHtmlEscaped());
    for (const QString &note : r->notes)
        html += QStringLiteral("<p><i>%1</i></p>").arg(note.toHtmlEscaped());
    const QList<RecipeAction> actions = actionsFor(*r);
    if (!actions.isEmpty()) {
        html += QStringLiteral("<p>%1</p>")
                    .arg(m_launch.readOnly
                            ? tr("Read-only session: actions are off.").toHtmlEscaped()
                            : tr("Actions: see the Actions menu.").toHtmlEscaped());
    }
    m_recipesPage->showDetails(html);
}

void MainWindow::triggerStepDown()
{
    if (const Recipe *r = selectedRecipe()) {
        for (const RecipeAction &a : actionsFor(*r)) {
            if (a.type == RecipeAction::Type::StepDown)
                return requestAction(a);
        }
    }
}

// On a holder's row, that holder; on the recipe's row, the first holder.
void MainWindow::triggerRelease()
{
    const Recipe *r = selectedRecipe();
    if (!r)
        return;
    const QByteArray key = m_recipesPage->currentSourceIndex().data(KeyRole).toByteArray();
    const QList<RecipeAction> actions = actionsFor(*r);
    for (const RecipeAction &a : actions) {
        if (a.type == RecipeAction::Type::ReleaseLock && a.key == key)
            return requestAction(a);
    }
    for (const RecipeAction &a : actions) {
        if (a.type == RecipeAction::Type::ReleaseLock)
            return requestAction(a);
    }
}

void MainWindow::triggerLift()
{
    if (const Recipe *r = selectedRecipe()) {
        for (const RecipeAction &a : actionsFor(*r)) {
            if (a.type == RecipeAction::Type::LiftBarrier)
                return requestAction(a);
        }
    }
}

void MainWindow::triggerRevoke()
{
    if (const qint64 lease = selectedLease())
        requestAction(revokeAction(lease));
}

void MainWindow::requestAction(const RecipeAction &action)
{
    if (m_launch.readOnly) {
        statusBar()->showMessage(tr("Read-only: start with --read-only=false to act."), 5000);
        return;
    }
    const BlastRadius blast = blastRadius(m_session->view(), action);
    delete m_confirm;
    m_confirm = new QMessageBox(QMessageBox::Warning, blast.title,
        blast.possible ? tr("This will end:") : blast.whyNot, QMessageBox::Cancel, this);
    // The effects name keys and client ids: a label would take one that looks like HTML for
    // rich text, so they go in as plain text made explicit.
    m_confirm->setInformativeText(Qt::convertFromPlainText(
        QStringLiteral("• ") + blast.effects.join(QStringLiteral("\n• ")), Qt::WhiteSpaceNormal));
    if (blast.possible)
        m_confirm->addButton(actionName(action.type), QMessageBox::AcceptRole);
    m_confirm->setDefaultButton(QMessageBox::Cancel);
    connect(m_confirm, &QMessageBox::finished, this, [this, action](int) {
        QMessageBox *box = std::exchange(m_confirm, nullptr);
        box->deleteLater();
        if (box->buttonRole(box->clickedButton()) == QMessageBox::AcceptRole)
            perform(action);
    });
    m_confirm->open();
}

void MainWindow::perform(const RecipeAction &action)
{
    EtcdReply *reply = Inspector::perform(m_session->client(), action);
    connect(reply, &EtcdReply::finished, this, [this, reply, action](const EtcdStatus &status) {
        auto *txn = qobject_cast<EtcdTxnReply *>(reply);
        const bool stale = status.isOk() && txn && !txn->succeeded();
        const bool ok = status.isOk() && !stale;
        const QString message = !status.isOk()
            ? tr("%1 failed: %2").arg(actionName(action.type), status.toString())
            : stale ? tr("%1 refused: the holder you saw is already gone (token %2).")
                          .arg(actionName(action.type))
                          .arg(action.createRevision)
                    : tr("%1 done.").arg(actionName(action.type));
        statusBar()->showMessage(message, 10000);
        RecipeEvent audit; // the operator's own actions go into the log too
        audit.time = QDateTime::currentDateTime();
        audit.revision = m_session->revision();
        audit.type = RecipeEvent::Type::Connection;
        audit.path = action.path;
        audit.actor = tr("operator");
        audit.text = message;
        m_log->append({audit});
        Q_EMIT actionFinished(ok, message);
    });
}

bool MainWindow::saveScreenshots(const QString &directory)
{
    if (!QDir().mkpath(directory))
        return false;
    static const char *const names[]
        = {"overview", "recipes", "leases", "timeline", "log", "raw", "cluster", "charts"};
    const int before = m_tabs->currentIndex();
    bool ok = true;
    for (int i = 0; i < m_tabs->count(); ++i) {
        m_tabs->setCurrentIndex(i);
        if (m_tabs->currentWidget() == m_charts)
            m_charts->finishCharts(); // made one per turn when shown: the picture wants all four
        // A page shown for the first time lays out on the next turn of the event loop (the
        // charts place their axes and legends there): let it, before the picture is taken.
        QCoreApplication::processEvents();
        const QString file
            = QDir(directory).filePath(QLatin1String(names[i]) + QStringLiteral(".png"));
        ok = grab().save(file) && ok;
    }
    m_tabs->setCurrentIndex(before);
    return ok;
}

} // namespace Inspector
