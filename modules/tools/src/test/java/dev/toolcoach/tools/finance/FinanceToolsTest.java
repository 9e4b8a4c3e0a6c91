package dev.toolcoach.tools.finance;

import dev.toolcoach.tools.exec.ExecutorSettings;
import dev.toolcoach.tools.exec.ToolExecutor;
import dev.toolcoach.tools.spi.ToolException;
import dev.toolcoach.trace.ToolCall;
import dev.toolcoach.trace.ToolResult;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Expected values worked by hand (and checked with a calculator), rounded half-even to cents. */
class FinanceToolsTest {

    private final FinanceTools finance = new FinanceTools();

    @Test
    void compoundInterestYearlyAndMonthly() throws ToolException {
        // 1000 * 1.05^10 = 1628.8946...
        var yearly = finance.compoundInterest(1000, 0.05, 10, null);
        assertEquals(new BigDecimal("1628.89"), yearly.futureValue());
        assertEquals(new BigDecimal("628.89"), yearly.interest());
        // 1000 * (1 + 0.06/12)^12 = 1061.6778...
        assertEquals(new BigDecimal("1061.68"), finance.compoundInterest(1000, 0.06, 1, 12).futureValue());
    }

    @Test
    void loanPaymentOfAThirtyYearMortgage() throws ToolException {
        // i = 0.005, N = 360: 200000 * 0.005 / (1 - 1.005^-360) = 1199.1010...
        var loan = finance.loanPayment(200_000, 0.06, 30, null);
        assertEquals(new BigDecimal("1199.10"), loan.payment());
        assertEquals(new BigDecimal("431676.38"), loan.totalPaid());
        assertEquals(new BigDecimal("231676.38"), loan.totalInterest());
        assertEquals(new BigDecimal("1000.00"), finance.loanPayment(12_000, 0, 1, 12).payment(), "no interest: equal parts");
    }

    @Test
    void cagrOfADoublingInFiveYears() throws ToolException {
        // 2^(1/5) - 1 = 0.148698...
        assertEquals(new BigDecimal("0.148698"), finance.cagr(100, 200, 5));
        assertEquals(new BigDecimal("0.000000"), finance.cagr(50, 50, 3));
    }

    @Test
    void npvDiscountsFromTimeZero() throws ToolException {
        // -1000 + 500/1.1 + 500/1.21 + 500/1.331 = 243.4259...
        assertEquals(new BigDecimal("243.43"), finance.npv(0.1, List.of(-1000.0, 500.0, 500.0, 500.0)));
        assertEquals(new BigDecimal("-1000.00"), finance.npv(0.1, List.of(-1000.0)));
    }

    @Test
    void outOfDomainInputsAreToolErrors() {
        assertEquals("years must be greater than 0, got 0.0",
                assertThrows(ToolException.class, () -> finance.cagr(100, 200, 0)).getMessage());
        assertEquals("start_value must be greater than 0, got -5.0",
                assertThrows(ToolException.class, () -> finance.cagr(-5, 200, 2)).getMessage());
        assertEquals("cash_flows must hold at least one cash flow",
                assertThrows(ToolException.class, () -> finance.npv(0.1, List.of())).getMessage());
    }

    @Test
    void throughTheExecutorResultsAreJsonWithSnakeCaseFields() throws Exception {
        try (ToolExecutor executor = new ToolExecutor(FinanceTools.suite(), ExecutorSettings.defaults())) {
            ToolResult result = executor.call("t", new ToolCall("loan_payment",
                    Map.of("principal", 200_000, "annual_rate", 0.06, "years", 30))).get(10, TimeUnit.SECONDS);
            assertEquals(ToolResult.Status.OK, result.status(), result.text());
            assertEquals("{\"payment\":1199.10,\"total_paid\":431676.38,\"total_interest\":231676.38}", result.text());
            assertEquals(List.of("compound_interest", "loan_payment", "cagr", "npv").stream().sorted().toList(),
                    executor.suite().toolNames());
        }
    }
}
