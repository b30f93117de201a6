import { BadRequestException, Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { Allow, IsIn, IsObject } from 'class-validator';
import { DocumentSubjects, ReportNames, type ReportName, type ReportRowsReply, type ReportRowsRequest } from '@bahi/contracts';
import { CompanyMsg, RpcId } from '@bahi/service-kit';
import { runReport } from './queries';
import { ReportsService } from './reports.service';

class ReportRowsMsg extends CompanyMsg implements ReportRowsRequest {
  @IsIn(ReportNames, { message: `name must be one of ${ReportNames.join(', ')}` }) name!: ReportName;
  @IsObject({ message: 'query must be an object of strings' }) @Allow() query!: Record<string, string>;
  @RpcId() maxRows!: number;
}

/**
 * A report for its PDF (documents): the same filters and 400s as GET /reports/{name}, up to
 * maxRows rows from the first (one more is read to tell that the report is longer).
 */
@Controller()
export class ReportRowsHandler {
  constructor(private readonly reports: ReportsService) {}

  @MessagePattern(DocumentSubjects.reportRows)
  async rows(@Payload() msg: ReportRowsMsg): Promise<ReportRowsReply> {
    for (const [k, v] of Object.entries(msg.query)) if (typeof v !== 'string') throw new BadRequestException(`${k} must be text.`);
    const report = (await runReport(this.reports, msg.companyId, msg.name, msg.query, msg.maxRows + 1)) as ReportRowsReply['report'];
    if (report.rows.length > msg.maxRows) return { name: msg.name, report: { ...report, rows: [] }, more: true };
    return { name: msg.name, report, more: false };
  }
}
