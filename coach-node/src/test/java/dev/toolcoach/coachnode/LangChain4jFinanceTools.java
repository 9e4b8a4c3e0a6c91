package dev.toolcoach.coachnode;

import dev.langchain4j.agent.tool.P;
import dev.langchain4j.agent.tool.Tool;
import dev.toolcoach.tools.finance.FinanceTools;
import dev.toolcoach.tools.spi.ToolException;

import java.math.BigDecimal;
import java.util.List;

/**
 * The finance tools as a LangChain4j user writes a tool class ({@code @Tool}/{@code @P}, argument names from the
 * parameters), named as the finance task's oracle calls them and computing with the built-in implementations, so a
 * tool node hosting it by name ({@code toolcoach.tools.classes}) answers the task's calls.
 */
public class LangChain4jFinanceTools {

    private final FinanceTools finance = new FinanceTools();

    @Tool(name = "compound_interest", value = "Future value of a principal growing at an annual rate compounded n times a year.")
    public FinanceTools.CompoundInterest compoundInterest(@P("amount invested now") double principal,
                                                          @P("annual interest rate as a decimal, e.g. 0.05 for 5%") double annual_rate,
                                                          @P("number of years, may be fractional") double years,
                                                          @P(value = "compounding periods per year (default 1)", required = false) Integer compounds_per_year)
            throws ToolException {
        return finance.compoundInterest(principal, annual_rate, years, compounds_per_year);
    }

    @Tool(name = "loan_payment", value = "Payment per period of an annuity loan.")
    public FinanceTools.LoanPayment loanPayment(@P("amount borrowed") double principal,
                                                @P("annual interest rate as a decimal, e.g. 0.06 for 6%") double annual_rate,
                                                @P("loan term in years") double years,
                                                @P(value = "payments per year (default 12)", required = false) Integer payments_per_year)
            throws ToolException {
        return finance.loanPayment(principal, annual_rate, years, payments_per_year);
    }

    @Tool("Compound annual growth rate from a start value to an end value over some years, as a decimal.")
    public BigDecimal cagr(@P("value at the start, > 0") double start_value, @P("value at the end, >= 0") double end_value,
                           @P("number of years, > 0") double years) throws ToolException {
        return finance.cagr(start_value, end_value, years);
    }

    @Tool("Net present value of cash flows at a discount rate; cash_flows[0] happens now.")
    public BigDecimal npv(@P("discount rate per period as a decimal") double rate,
                          @P("cash flows per period, negative for outlays") List<Double> cash_flows) throws ToolException {
        return finance.npv(rate, cash_flows);
    }
}
