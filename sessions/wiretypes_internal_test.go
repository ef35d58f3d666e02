package sessions

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// wireTypes holds a value of every exported wire type of the package, by
// name (TestWireTypesListed keeps it complete).
var wireTypes = map[string]any{
	"WorkflowRunCreatedEvent":             WorkflowRunCreatedEvent{},
	"WorkflowRunPhase":                    WorkflowRunPhase{},
	"WorkflowRunStatusRunningEvent":       WorkflowRunStatusRunningEvent{},
	"WorkflowRunStatusIdleEvent":          WorkflowRunStatusIdleEvent{},
	"WorkflowRunStatusEndedEvent":         WorkflowRunStatusEndedEvent{},
	"WorkflowRunResult":                   WorkflowRunResult{},
	"WorkflowRunPhaseStartedEvent":        WorkflowRunPhaseStartedEvent{},
	"WorkflowRunPhaseEndedEvent":          WorkflowRunPhaseEndedEvent{},
	"WorkflowRunErrorEvent":               WorkflowRunErrorEvent{},
	"WorkflowRunError":                    WorkflowRunError{},
	"TextRubricParam":                     TextRubricParam{},
	"ToolResultParam":                     ToolResultParam{},
	"ToolConfirmationParam":               ToolConfirmationParam{},
	"SystemMessageParam":                  SystemMessageParam{},
	"CustomToolResultParam":               CustomToolResultParam{},
	"UserMessageParam":                    UserMessageParam{},
	"DefineOutcomeParam":                  DefineOutcomeParam{},
	"TextBlockParam":                      TextBlockParam{},
	"FileRubricParam":                     FileRubricParam{},
	"InterruptParam":                      InterruptParam{},
	"Agent":                               Agent{},
	"AgentCustomToolUseEvent":             AgentCustomToolUseEvent{},
	"AgentMCPToolResultEvent":             AgentMCPToolResultEvent{},
	"AgentMCPToolUseEvent":                AgentMCPToolUseEvent{},
	"AgentMessageEvent":                   AgentMessageEvent{},
	"AgentThinkingEvent":                  AgentThinkingEvent{},
	"AgentThreadContextCompactedEvent":    AgentThreadContextCompactedEvent{},
	"AgentThreadMessageReceivedEvent":     AgentThreadMessageReceivedEvent{},
	"AgentThreadMessageSentEvent":         AgentThreadMessageSentEvent{},
	"AgentToolResultEvent":                AgentToolResultEvent{},
	"AgentToolUseEvent":                   AgentToolUseEvent{},
	"AlwaysAllowEvaluation":               AlwaysAllowEvaluation{},
	"AlwaysAskEvaluation":                 AlwaysAskEvaluation{},
	"AutoEvaluation":                      AutoEvaluation{},
	"AutoPermission":                      AutoPermission{},
	"Base64Source":                        Base64Source{},
	"BranchCheckout":                      BranchCheckout{},
	"Budget":                              Budget{},
	"CacheCreation":                       CacheCreation{},
	"Citations":                           Citations{},
	"CommitCheckout":                      CommitCheckout{},
	"ContentDelta":                        ContentDelta{},
	"CustomToolResultEvent":               CustomToolResultEvent{},
	"DefineOutcomeEvent":                  DefineOutcomeEvent{},
	"DocumentBlock":                       DocumentBlock{},
	"EventDelta":                          EventDelta{},
	"EventStart":                          EventStart{},
	"FileResource":                        FileResource{},
	"FileSource":                          FileSource{},
	"ImageBlock":                          ImageBlock{},
	"InterruptEvent":                      InterruptEvent{},
	"MemoryStoreResource":                 MemoryStoreResource{},
	"ModelUsage":                          ModelUsage{},
	"OutcomeEvaluation":                   OutcomeEvaluation{},
	"PlainTextSource":                     PlainTextSource{},
	"PreviewedEvent":                      PreviewedEvent{},
	"RedactedBlock":                       RedactedBlock{},
	"RefusalDetails":                      RefusalDetails{},
	"RepositoryResource":                  RepositoryResource{},
	"RetryExhausted":                      RetryExhausted{},
	"RetryRetrying":                       RetryRetrying{},
	"RetryTerminal":                       RetryTerminal{},
	"SearchResultBlock":                   SearchResultBlock{},
	"ServerToolUse":                       ServerToolUse{},
	"Session":                             Session{},
	"SessionDeletedEvent":                 SessionDeletedEvent{},
	"SessionError":                        SessionError{},
	"SessionErrorEvent":                   SessionErrorEvent{},
	"SessionStatusIdleEvent":              SessionStatusIdleEvent{},
	"SessionStatusRescheduledEvent":       SessionStatusRescheduledEvent{},
	"SessionStatusRunningEvent":           SessionStatusRunningEvent{},
	"SessionStatusTerminatedEvent":        SessionStatusTerminatedEvent{},
	"SessionThreadCreatedEvent":           SessionThreadCreatedEvent{},
	"SessionThreadStatusIdleEvent":        SessionThreadStatusIdleEvent{},
	"SessionThreadStatusRescheduledEvent": SessionThreadStatusRescheduledEvent{},
	"SessionThreadStatusRunningEvent":     SessionThreadStatusRunningEvent{},
	"SessionThreadStatusTerminatedEvent":  SessionThreadStatusTerminatedEvent{},
	"SessionUpdatedEvent":                 SessionUpdatedEvent{},
	"SessionUsageEvent":                   SessionUsageEvent{},
	"SpanModelRequestEndEvent":            SpanModelRequestEndEvent{},
	"SpanModelRequestStartEvent":          SpanModelRequestStartEvent{},
	"SpanOutcomeEvaluationEndEvent":       SpanOutcomeEvaluationEndEvent{},
	"SpanOutcomeEvaluationOngoingEvent":   SpanOutcomeEvaluationOngoingEvent{},
	"SpanOutcomeEvaluationStartEvent":     SpanOutcomeEvaluationStartEvent{},
	"Stats":                               Stats{},
	"Thread":                              Thread{},
	"ThreadStats":                         ThreadStats{},
	"InlineThreadAgent":                   InlineThreadAgent{},
	"AdvisorThreadAgent":                  AdvisorThreadAgent{},
	"RosterThreadAgent":                   RosterThreadAgent{},
	"StopBudgetReached":                   StopBudgetReached{},
	"StopEndTurn":                         StopEndTurn{},
	"StopRefusal":                         StopRefusal{},
	"StopRequiresAction":                  StopRequiresAction{},
	"StopRetriesExhausted":                StopRetriesExhausted{},
	"SystemMessageEvent":                  SystemMessageEvent{},
	"TextBlock":                           TextBlock{},
	"ToolConfirmationEvent":               ToolConfirmationEvent{},
	"ToolResultEvent":                     ToolResultEvent{},
	"URLSource":                           URLSource{},
	"Usage":                               Usage{},
	"UserMessageEvent":                    UserMessageEvent{},
}

// TestWireTypesListed: wireTypes names every exported struct type of the
// package with an Extra field, its own or embedded.
func TestWireTypesListed(t *testing.T) {
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var files []*ast.File
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	structs := map[string]*ast.StructType{}
	for _, f := range files {
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.TYPE {
				continue
			}
			for _, s := range g.Specs {
				ts := s.(*ast.TypeSpec)
				if st, ok := ts.Type.(*ast.StructType); ok && ts.Name.IsExported() {
					structs[ts.Name.Name] = st
				}
			}
		}
	}
	var hasExtra func(name string) bool
	hasExtra = func(name string) bool {
		st, ok := structs[name]
		if !ok {
			return false
		}
		for _, f := range st.Fields.List {
			if len(f.Names) == 0 {
				if id, ok := f.Type.(*ast.Ident); ok && hasExtra(id.Name) {
					return true
				}
			}
			if slices.ContainsFunc(f.Names, func(n *ast.Ident) bool { return n.Name == "Extra" }) {
				return true
			}
		}
		return false
	}
	for name := range structs {
		if _, listed := wireTypes[name]; hasExtra(name) && !listed {
			t.Errorf("%s has an Extra field but is not in wireTypes", name)
		}
	}
}
