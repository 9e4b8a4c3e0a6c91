package dev.toolcoach.tools.finance;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import dev.toolcoach.tools.spi.Param;
import dev.toolcoach.tools.spi.ToolException;
import dev.toolcoach.tools.spi.ToolMethod;
import dev.toolcoach.tools.spi.ToolSuite;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.List;

/**
 * The ToolBrain paper's finance tools. Rates are decimals (0.05 is 5 %); money is rounded to cents
 * and rates to six decimals, half-even, so answers compare exactly.
 */
public final class FinanceTools {

    public static final String SUITE = "finance";

    public static ToolSuite suite() {
        return ToolSuite.builder(SUITE).addAnnotated(new FinanceTools()).build();
    }

    // Jackson 2.13 puts renamed record components last unless told the order
    @JsonPropertyOrder({"future_value", "interest"})
    public record CompoundInterest(@JsonProperty("future_value") BigDecimal futureValue, BigDecimal interest) {
    }

    @JsonPropertyOrder({"payment", "total_paid", "total_interest"})
    public record LoanPayment(BigDecimal payment, @JsonProperty("total_paid") BigDecimal totalPaid,
                              @JsonProperty("total_interest") BigDecimal totalInterest) {
    }

    @ToolMethod(name = "compound_interest",
            description = "Future value of a principal growing at an annual rate compounded n times a year: P(1 + r/n)^(n*t).")
    public CompoundInterest compoundInterest(
            @Param("amount invested now") double principal,
            @Param(name = "annual_rate", value = "annual interest rate as a decimal, e.g. 0.05 for 5%") double annualRate,
            @Param("number of years, may be fractional") double years,
            @Param(name = "compounds_per_year", value = "compounding periods per year (default 1; 12 for monthly)",
                    required = false) Integer compoundsPerYear) throws ToolException {
        int n = compoundsPerYear == null ? 1 : compoundsPerYear;
        requirePositive("compounds_per_year", n);
        requireNonNegative("years", years);
        requireRateAbove(-n, "annual_rate", annualRate);
        double futureValue = principal * Math.pow(1 + annualRate / n, n * years);
        return new CompoundInterest(money(futureValue), money(futureValue - principal));
    }

    @ToolMethod(name = "loan_payment",
            description = "Payment per period of an annuity loan: P*i / (1 - (1+i)^-N) with i = rate/periods and N = years*periods.")
    public LoanPayment loanPayment(
            @Param("amount borrowed") double principal,
            @Param(name = "annual_rate", value = "annual interest rate as a decimal, e.g. 0.06 for 6%") double annualRate,
            @Param("loan term in years") double years,
            @Param(name = "payments_per_year", value = "payments per year (default 12)", required = false) Integer paymentsPerYear)
            throws ToolException {
        int m = paymentsPerYear == null ? 12 : paymentsPerYear;
        requirePositive("payments_per_year", m);
        requirePositive("years", years);
        requireRateAbove(-m, "annual_rate", annualRate);
        double periods = years * m;
        double i = annualRate / m;
        double payment = i == 0 ? principal / periods : principal * i / (1 - Math.pow(1 + i, -periods));
        BigDecimal perPeriod = money(payment);
        BigDecimal total = money(payment * periods);
        return new LoanPayment(perPeriod, total, total.subtract(money(principal)));
    }

    @ToolMethod(description = "Compound annual growth rate from a start value to an end value over some years: (end/start)^(1/years) - 1, as a decimal.")
    public BigDecimal cagr(@Param(name = "start_value", value = "value at the start, > 0") double startValue,
                           @Param(name = "end_value", value = "value at the end, >= 0") double endValue,
                           @Param("number of years, > 0") double years) throws ToolException {
        requirePositive("start_value", startValue);
        requireNonNegative("end_value", endValue);
        requirePositive("years", years);
        return rate(Math.pow(endValue / startValue, 1 / years) - 1);
    }

    @ToolMethod(description = "Net present value of cash flows at a discount rate; cash_flows[0] happens now (t=0), "
            + "cash_flows[t] after t periods: sum of cf_t / (1 + rate)^t.")
    public BigDecimal npv(@Param("discount rate per period as a decimal, e.g. 0.1 for 10%") double rate,
                          @Param(name = "cash_flows", value = "cash flows per period, negative for outlays") List<Double> cashFlows)
            throws ToolException {
        requireRateAbove(-1, "rate", rate);
        if (cashFlows.isEmpty()) throw new ToolException("cash_flows must hold at least one cash flow");
        double value = 0;
        for (int t = 0; t < cashFlows.size(); t++) {
            if (cashFlows.get(t) == null) throw new ToolException("cash_flows[" + t + "] is null; give a number");
            value += cashFlows.get(t) / Math.pow(1 + rate, t);
        }
        return money(value);
    }

    private static BigDecimal money(double value) {
        return BigDecimal.valueOf(value).setScale(2, RoundingMode.HALF_EVEN);
    }

    private static BigDecimal rate(double value) {
        return BigDecimal.valueOf(value).setScale(6, RoundingMode.HALF_EVEN);
    }

    private static void requirePositive(String name, double value) throws ToolException {
        if (!(value > 0)) throw new ToolException(name + " must be greater than 0, got " + value);
    }

    private static void requireNonNegative(String name, double value) throws ToolException {
        if (!(value >= 0)) throw new ToolException(name + " must not be negative, got " + value);
    }

    private static void requireRateAbove(double bound, String name, double value) throws ToolException {
        if (!(value > bound)) throw new ToolException(name + " must be greater than " + bound + ", got " + value);
    }
}
